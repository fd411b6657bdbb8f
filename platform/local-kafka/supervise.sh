#!/bin/sh
# Runs one broker JVM so that it can never outlive the Node process that started it.
# Usage: sh supervise.sh <out-file> <dir-to-remove-or-empty> <parent-to-rmdir-or-empty> <command> [args...]
#
# The launcher holds our stdin pipe open and never writes to it. When the launcher exits or is
# SIGKILLed the pipe reaches EOF: the watcher below then sends SIGTERM to the JVM (SIGKILL 8 s later)
# and, when the launcher asked for it, removes the node's data folder since nobody else will.
# Prints the JVM's pid on stdout, then nothing else. Exits with the JVM's exit status.
out=$1
rm_dir=$2
rm_parent=$3
shift 3

exec 3<&0
# Ctrl-C reaches the whole process group; the launcher (or the watcher) decides when the broker stops.
trap '' INT
"$@" </dev/null 3<&- >>"$out" 2>&1 &
child=$!
echo "$child"

{
  read -r _ <&3
  : >"$out.orphaned"
  kill -TERM "$child" 2>/dev/null
  i=0
  while [ "$i" -lt 80 ] && kill -0 "$child" 2>/dev/null; do
    sleep 0.1
    i=$((i + 1))
  done
  kill -KILL "$child" 2>/dev/null
} </dev/null >/dev/null 2>&1 &
watcher=$!
exec 3<&-

wait "$child"
rc=$?
kill "$watcher" 2>/dev/null
if [ -e "$out.orphaned" ] && [ -n "$rm_dir" ]; then
  rm -rf "$rm_dir"
  # The launcher's temp folder: gone once the last node's folder is (launcher.json is ours too).
  if [ -n "$rm_parent" ]; then
    rm -f "$rm_parent/launcher.json"
    rmdir "$rm_parent" 2>/dev/null
  fi
fi
exit "$rc"
