# SPDX-License-Identifier: GPL-2.0
#
# guest/run --gdb-watch: one gdb attached to QEMU's gdbstub from boot to
# the end (the gdbstub takes one client, so everything goes through it):
#
# - Kernel reports: breakpoints in the report paths -- the link checker's
#   ptrace_check_report(), __warn() (WARN), die() (BUG, Oops) and panic()
#   -- dump, at that very moment, the backtrace and ptstress-task of the
#   current task, its parent, real parent, children and tracees, into
#   kernel-report.N.txt in the run directory; then the guest goes on.
# - guest/gdb-dump requests (ptstress run --gdb-on-failure): the watcher
#   thread sees gdb-request, interrupts the target, the main loop dumps the
#   tasks into gdb-dump.N.txt and answers with gdb-done.
# - guest/run's hang report: gdb-hang-request, answered with
#   gdb-report.txt (every CPU's backtrace, lx-ps, lx-dmesg).
#
# Environment: PTSTRESS_WATCH_DIR (the run directory), PTSTRESS_WATCH_PORT.
# Loaded after vmlinux-gdb.py and ptstress.py (ptstress-task).

import os
import signal
import threading
import time

import gdb

OUT = os.environ["PTSTRESS_WATCH_DIR"]
PORT = os.environ["PTSTRESS_WATCH_PORT"]
MAX_REPORT_DUMPS = 20
BREAK_AT = ["ptrace_check_report", "__warn", "die", "panic"]

# busy: the target is stopped and a request is being answered; the watcher
# interrupts only a running target (a second SIGINT would cut the answer).
state = {"reports": 0, "dumps": 0, "wake": None, "done": False, "busy": False}
lock = threading.Lock()


def log(msg):
    with open(os.path.join(OUT, "gdb-watch.log"), "a") as f:
        f.write("%.3f %s\n" % (time.time(), msg))


def relatives(t):
    """pids of task_struct pointer @t and the tasks around it."""
    pids = [int(t['pid']), int(t['parent']['pid']), int(t['real_parent']['pid'])]
    fields = dict(task_fields(t))  # ptstress.py's, sourced before this file
    for key in ("children", "ptraced"):
        if fields[key] != "-":
            pids += [int(p) for p in fields[key].split(",") if p.isdigit()][:8]
    out = []
    for p in pids:
        if p > 0 and p not in out:
            out.append(p)
    return out


class ReportBreak(gdb.Breakpoint):
    """A kernel report path: dump the moment, then let the guest go on."""

    def stop(self):
        state["reports"] += 1
        n = state["reports"]
        if n > MAX_REPORT_DUMPS:
            return False
        path = os.path.join(OUT, "kernel-report.%d.txt" % n)
        try:
            with open(path, "w") as f:
                f.write("break in %s\n" % self.location)
                f.write(gdb.execute("bt 40", to_string=True))
                cur = gdb.parse_and_eval("$lx_current()")  # a task_struct pointer
                pids = relatives(cur)
                # the task the report is about, if the frame has one
                # (ptrace_check_report()'s t, a child, p, task)
                for arg in ("t", "child", "p", "task", "tsk"):
                    try:
                        v = gdb.parse_and_eval(arg)
                    except gdb.error:
                        continue
                    if str(v.type.strip_typedefs()) == "struct task_struct *" and int(v):
                        for q in relatives(v):
                            if q not in pids:
                                pids.append(q)
                        f.write("about: %s = pid %d\n" % (arg, int(v['pid'])))
                        break
                f.write(gdb.execute("ptstress-task " + " ".join(str(p) for p in pids),
                                    to_string=True))
            log("report %d: break in %s, %s" % (n, self.location, path))
        except gdb.error as e:
            log("report %d: break in %s, dump failed: %s" % (n, self.location, e))
        return False


def watcher():
    """Poll for requests; interrupt the running target for each."""
    while not state["done"]:
        for name in ("gdb-request", "gdb-hang-request"):
            if os.path.exists(os.path.join(OUT, name)):
                with lock:
                    if state["wake"] is None and not state["busy"]:
                        state["wake"] = name
                        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.2)


def answer_dump():
    path = os.path.join(OUT, "gdb-request")
    try:
        pids = " ".join(w for w in open(path).read(4000).split() if w.isdigit())
    except OSError:
        pids = ""
    state["dumps"] += 1
    name = "gdb-dump.%d.txt" % state["dumps"]
    with open(os.path.join(OUT, name), "w") as f:
        try:
            f.write(gdb.execute("frame", to_string=True))
            f.write(gdb.execute("ptstress-task " + pids, to_string=True))
        except gdb.error as e:
            f.write("ptstress-task failed: %s\n" % e)
    os.unlink(path)
    with open(os.path.join(OUT, "gdb-done.tmp"), "w") as f:
        f.write(name + "\n")
    os.rename(os.path.join(OUT, "gdb-done.tmp"), os.path.join(OUT, "gdb-done"))
    log("dump %s of %s" % (name, pids))


def answer_hang():
    with open(os.path.join(OUT, "gdb-report.txt"), "w") as f:
        for cmd in ("info threads", "thread apply all bt", "lx-ps", "lx-dmesg"):
            try:
                f.write(gdb.execute(cmd, to_string=True))
            except gdb.error as e:
                f.write("%s: %s\n" % (cmd, e))
    os.unlink(os.path.join(OUT, "gdb-hang-request"))
    log("hang report written")


def main():
    gdb.execute("set pagination off")
    gdb.execute("set confirm off")
    gdb.execute("target remote 127.0.0.1:" + PORT)
    for where in BREAK_AT:
        try:
            ReportBreak(where, internal=True)
        except (gdb.error, RuntimeError) as e:
            log("no breakpoint at %s: %s" % (where, e))
    threading.Thread(target=watcher, daemon=True).start()
    open(os.path.join(OUT, "gdb-watch.ready"), "w").close()
    log("attached, watching")
    while True:
        with lock:
            state["busy"] = False
        try:
            gdb.execute("continue")
        except KeyboardInterrupt:
            pass
        except gdb.error as e:
            log("target gone: %s" % e)
            break
        with lock:
            state["busy"] = True
            wake = state["wake"]
        try:
            if wake == "gdb-request":
                answer_dump()
            elif wake == "gdb-hang-request":
                answer_hang()
        except KeyboardInterrupt:
            log("answer to %s interrupted" % wake)
        with lock:
            state["wake"] = None
    state["done"] = True


main()
