# The PC side: the simulator that runs the device firmware with its edges replaced, and
# host commands for players and makers (read a save, score real dice, check a board layout).
