#!/bin/sh
# make browser's package manager: runs "$@" (apt-get and its arguments). While another
# package manager holds apt's or dpkg's lock (an update started at boot, another make
# browser), it says so in one line and waits, trying again every APT_WAIT_EVERY seconds (5)
# for up to APT_WAIT_MAX (600); then it stops with one line saying what to do. Any other
# failure stops at once with apt's own error. (Shell built-ins and sleep only.)
max=${APT_WAIT_MAX:-600}
every=${APT_WAIT_EVERY:-5}
waited=0
said=
while :; do
  # apt's errors kept to be read, its output shown as it comes
  err=$({ "$@" 2>&1 1>&3 3>&-; } 3>&1)
  rc=$?
  case $rc:$err in
    0:*) [ -z "$err" ] || printf '%s\n' "$err" >&2; exit 0 ;;
    *"Could not get lock"* | *"Unable to acquire the dpkg frontend lock"*) ;;
    *) printf '%s\n' "$err" >&2; exit "$rc" ;;
  esac
  who="another package manager"
  case $err in *"held by process "*) who=${err#*held by process }; who="process ${who%%)*})" ;; esac
  if [ "$waited" -ge "$max" ]; then
    echo "make browser: apt's lock is still held by $who after $max s: let it finish (or end it), then run make test again" >&2
    exit "$rc"
  fi
  [ -n "$said" ] || echo "make browser: apt's lock is held by $who; waiting for it to finish (up to $max s)" >&2
  said=1
  sleep "$every"
  waited=$((waited + every))
done
