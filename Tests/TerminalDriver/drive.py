#!/usr/bin/env python3
"""Runs `movies` on a pseudo-terminal, renders what it writes with pyte (a VT100 screen), and
follows a script of steps: keys to send, text to wait for on the SCREEN, resizes, signals,
snapshots of the screen and of `stty -g`. The Swift tests (Tests/EndToEndTests/Terminal/TerminalTests.swift)
write the script and assert on the snapshots; this file only drives and reports.

Usage: drive.py SPEC.json   ->  prints one JSON object:
  {"ok": true, "snapshots": {name: [screen lines]}, "styled": {name: [line numbers]}, "stty": {name: "..."},
   "status": N, "cursorHidden": false}
  {"ok": false, "error": "...", "screen": [lines], ...}

Spec: {"argv": [...], "cwd": "...", "env": {...}, "size": [columns, rows], "steps": [...]}
Steps: {"send": "text"}            keys (escape sequences written as they are)
       {"wait": "text", "timeout": s, "times": n}   until the screen shows text (on n lines, 1 unless said)
       {"waitLine": "text", "timeout": s}  until a line of the screen is text, all of it
       {"waitGone": "text"}        until it does not
       {"resize": [columns, rows]} TIOCSWINSZ (the kernel sends SIGWINCH) and the screen follows
                                   (cutting lines, as xterm does; with "reflow": true, rewrapping
                                   lines wider than the new width, as VTE, iTerm2, kitty and tmux do)
       {"signal": "TERM"}          to the process ("job": true, to its child: the job of a shell run as the program)
       {"snapshot": "name"}        the screen's lines now, and in "styled" the numbers (from 0) of the
                                   lines with a cell in colour, bold or reverse (pyte has no dim)
       {"stty": "name"}            `stty -g` of the terminal now
       {"stopped": s}              wait until the process is stopped (Ctrl-Z); "job": true, its child
       {"exit": s}                 wait for the process to end; its status is reported
       {"touch": "path"}           creates the file: tells the test a point of the script is reached
                                   (such as text on the screen), so it can open a server's gate
Before the program starts, "stty" holds "before".
"""
import fcntl, json, os, select, signal, struct, subprocess, sys, termios, time

import pyte

def main():
    spec = json.load(open(sys.argv[1]))
    signal.pthread_sigmask(signal.SIG_SETMASK, [])
    columns, rows = spec.get("size", [100, 30])
    master, slave = os.openpty()
    set_size(master, columns, rows)
    screen = pyte.Screen(columns, rows)
    stream = pyte.ByteStream(screen)
    result = {"ok": True, "snapshots": {}, "styled": {}, "stty": {"before": stty(slave)}}

    def child_setup():
        signal.pthread_sigmask(signal.SIG_SETMASK, [])
        os.setsid()
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)

    env = dict(spec.get("env", {}))
    env.setdefault("TERM", "xterm-256color")
    process = subprocess.Popen(spec["argv"], cwd=spec.get("cwd"), env=env, stdin=slave, stdout=slave,
                               stderr=slave, preexec_fn=child_setup, close_fds=True)

    def pump(timeout):
        ready, _, _ = select.select([master], [], [], timeout)
        if ready:
            try:
                data = os.read(master, 65536)
            except OSError:
                return False
            if data:
                stream.feed(data)
                return True
        return False

    def lines():
        return [line.rstrip() for line in screen.display]

    def styled():
        def plain(cell):
            return cell.fg == "default" and cell.bg == "default" and not (cell.bold or cell.reverse or cell.underscore or cell.italics)
        return [y for y in range(screen.lines) if not all(plain(cell) for cell in screen.buffer[y].values())]

    def target(step):
        if not step.get("job"):
            return process.pid
        with open(f"/proc/{process.pid}/task/{process.pid}/children") as children:
            return int(children.read().split()[0])

    def wait_until(condition, timeout, what):
        deadline = time.monotonic() + timeout
        while not condition():
            if time.monotonic() > deadline:
                raise Failure(f"timed out after {timeout}s waiting for {what}")
            pump(0.05)

    try:
        for step in spec["steps"]:
            if "send" in step:
                os.write(master, step["send"].encode())
            elif "wait" in step:
                text, times = step["wait"], step.get("times", 1)
                wait_until(lambda: sum(text in line for line in lines()) >= times, step.get("timeout", 15),
                           repr(text) + (f" on {times} lines" if times > 1 else ""))
            elif "waitLine" in step:
                text = step["waitLine"]
                wait_until(lambda: text in lines(), step.get("timeout", 15), f"the line {text!r}")
            elif "waitGone" in step:
                text = step["waitGone"]
                wait_until(lambda: not any(text in line for line in lines()), step.get("timeout", 15), f"{text!r} to go")
            elif "resize" in step:
                columns, rows = step["resize"]
                # Drain what was drawn at the old size first, as a terminal would have.
                while pump(0.05):
                    pass
                if step.get("reflow"):
                    # A live page redraws every 100 ms: resize just after a drawing has arrived
                    # whole, so none is under way at the old width while the lines are rewrapped.
                    wait_until(lambda: pump(0.2), 2, "a drawing before the resize")
                    while pump(0.005):
                        pass
                # The window's new size first, the screen's rewrapping after: what the program
                # writes from now on waits in the pty until the screen has its new size. Rewrapping
                # first (pyte, slow on a busy machine) left the program a while to draw once more
                # for the old size, and that drawing landed on the rewrapped screen: the old page's
                # top was left above the new one (two test runs at once, issue 25).
                set_size(master, columns, rows)
                if step.get("reflow"):
                    reflow(screen, columns, rows)
                else:
                    screen.resize(rows, columns)
                os.kill(process.pid, signal.SIGWINCH)
            elif "signal" in step:
                os.kill(target(step), getattr(signal, "SIG" + step["signal"]))
            elif "snapshot" in step:
                while pump(0.02):
                    pass
                result["snapshots"][step["snapshot"]] = lines()
                result["styled"][step["snapshot"]] = styled()
            elif "touch" in step:
                open(step["touch"], "a").close()
            elif "stty" in step:
                result["stty"][step["stty"]] = stty(slave)
            elif "stopped" in step:
                wait_until(lambda: state(target(step)) == "T", step["stopped"], "the program to stop")
            elif "exit" in step:
                wait_until(lambda: process.poll() is not None, step["exit"], "the program to end")
                while pump(0.02):
                    pass
                result["status"] = process.returncode
    except Failure as failure:
        result.update(ok=False, error=str(failure))
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        while pump(0.01):
            pass
        result["screen"] = lines()
        result["cursorHidden"] = bool(screen.cursor.hidden)
    print(json.dumps(result))

def reflow(screen, columns, rows):
    """Resizes `screen` as a terminal that rewraps does: a line wider than `columns` takes as
    many rows as it needs, the rows below (and the cursor) move down, and what no longer fits
    scrolls off the top. Colours are lost; the tests read only text."""
    old = [line.rstrip() for line in screen.display]
    cursor_y, cursor_x = screen.cursor.y, screen.cursor.x
    hidden = screen.cursor.hidden
    new, new_cursor = [], 0
    for y, text in enumerate(old):
        if y == cursor_y:
            new_cursor = len(new) + cursor_x // columns
            cursor_x %= columns
        new += [text[i:i + columns] for i in range(0, len(text), columns)] or [""]
    while len(new) > rows and len(new) - 1 > new_cursor and not new[-1]:
        new.pop()
    drop = max(0, len(new) - rows)
    new, new_cursor = new[drop:], new_cursor - drop
    screen.resize(rows, columns)
    screen.erase_in_display(2)
    for y, text in enumerate(new):
        screen.cursor_position(y + 1, 1)
        screen.draw(text)
    screen.cursor_position(new_cursor + 1, cursor_x + 1)
    screen.cursor.hidden = hidden

class Failure(Exception):
    pass

def set_size(fd, columns, rows):
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))

def state(pid):
    with open(f"/proc/{pid}/stat") as stat:
        return stat.read().rsplit(")", 1)[1].split()[0]

def stty(fd):
    return subprocess.run(["stty", "-g"], stdin=fd, capture_output=True, text=True).stdout.strip()

if __name__ == "__main__":
    main()
