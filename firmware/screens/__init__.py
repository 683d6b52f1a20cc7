# The app's screens, one module each, imported when pushed and dropped when popped
# (firmware/app.py). Each module has make(app, arg) -> a base.Screen.
