# SPDX-License-Identifier: GPL-2.0
#
# gdb commands of ptstress, for gdb attached to the guest kernel's gdbstub
# after the kernel's own scripts (vmlinux-gdb.py, the lx-* commands):
#
#   ptstress-task PID...   the kernel's view of each task: the links and
#                          states ptrace, exit and wait work on, one
#                          "task key=value ..." line per task (pids are
#                          the init pid namespace's, as /proc shows them)
#
# The fields are read from struct task_struct (include/linux/sched.h),
# struct signal_struct (include/linux/sched/signal.h) and struct pid
# (include/linux/pid.h) of Linux 6.1, by name: gdb checks them against
# vmlinux's debug info, so a renamed field is an error, not a wrong value.
# Lists: ->children (linked by ->sibling) and ->ptraced (linked by
# ->ptrace_entry), as exit_ptrace(), forget_original_parent() and
# do_wait() walk them.  docs/debugging.md shows the output.

import gdb

from linux import lists, tasks, utils

task_type = utils.CachedType("struct task_struct")


# A broken kernel may have broken lists: every walk is bounded, and a
# walk that hits the bound says so instead of looping for ever.
MAX_TASKS = 100000
MAX_LIST = 10000


def _pids(head, member):
    """The pids of the tasks on list @head, linked by their @member."""
    ptr = task_type.get_type().pointer()
    out = []
    for t in lists.list_for_each_entry(head, ptr, member):
        if len(out) >= MAX_LIST:
            out.append("TRUNCATED")
            break
        out.append(int(t['pid']))
    return out


def find_task(pid):
    """The task_struct pointer of @pid (init pid namespace), or None."""
    for n, t in enumerate(tasks.task_lists()):
        if n >= MAX_TASKS:
            raise gdb.GdbError("ptstress-task: more than %d tasks: a broken list?" % MAX_TASKS)
        if int(t['pid']) == pid:
            return t
    return None


def _csv(pids):
    return ",".join(str(p) for p in pids) if pids else "-"


def task_fields(t):
    """The fields of task_struct pointer @t, in print order."""
    sig = t['signal']
    pid = t['thread_pid']
    level = int(pid['level'])
    nspids = [int(pid['numbers'][i]['nr']) for i in range(level + 1)]
    comm = t['comm'].string(length=16).split("\0")[0].replace(" ", "_") or "-"
    return [
        ("pid", int(t['pid'])),
        ("tgid", int(t['tgid'])),
        ("comm", comm),
        # TASK_* bits: 0 running, 1 S, 2 D, 4 T (__TASK_STOPPED), 8 t (__TASK_TRACED)
        ("state", hex(int(t['__state']))),
        # EXIT_ZOMBIE 0x20, EXIT_DEAD 0x10
        ("exit_state", hex(int(t['exit_state']))),
        ("exit_code", int(t['exit_code'])),
        ("exit_signal", int(t['exit_signal'])),
        ("pdeath_signal", int(t['pdeath_signal'])),
        # PT_PTRACED 0x1, PT_SEIZED 0x10000, PT_TRACE_* option bits
        ("ptrace", hex(int(t['ptrace']))),
        ("parent", int(t['parent']['pid'])),
        ("real_parent", int(t['real_parent']['pid'])),
        ("leader", int(t['group_leader']['pid'])),
        ("jobctl", hex(int(t['jobctl']))),
        ("flags", hex(int(t['flags']))),
        # SIGNAL_STOP_STOPPED 0x1, _CONTINUED 0x2, SIGNAL_GROUP_EXIT 0x4, ...
        ("signal_flags", hex(int(sig['flags']))),
        ("group_exit_code", int(sig['group_exit_code'])),
        ("group_stop_count", int(sig['group_stop_count'])),
        ("is_child_subreaper", int(sig['is_child_subreaper'])),
        ("pidns_level", level),
        ("nspid", _csv(nspids)),
        ("children", _csv(_pids(t['children'], "sibling"))),
        ("ptraced", _csv(_pids(t['ptraced'], "ptrace_entry"))),
    ]


class PtstressTask(gdb.Command):
    """ptstress-task PID...: the kernel's ptrace/exit/wait view of each task.

One line per task: "task pid=N tgid=N comm=... state=0x.. exit_state=0x..
exit_code=N exit_signal=N pdeath_signal=N ptrace=0x.. parent=N real_parent=N
leader=N jobctl=0x.. flags=0x.. signal_flags=0x.. group_exit_code=N
group_stop_count=N is_child_subreaper=N pidns_level=N nspid=N,.. children=..
ptraced=..", lists as comma-separated pids ("-": empty).  A pid with no task
gives "task pid=N missing"."""

    def __init__(self):
        super(PtstressTask, self).__init__("ptstress-task", gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        for a in gdb.string_to_argv(arg):
            try:
                # a number, or an expression: $ptstress_pid1 (make debug)
                pid = int(gdb.parse_and_eval(a))
            except (gdb.error, ValueError):
                raise gdb.GdbError("ptstress-task: not a pid: " + a)
            t = find_task(pid)
            if t is None:
                gdb.write("task pid=%d missing\n" % pid)
                continue
            gdb.write("task " + " ".join("%s=%s" % kv for kv in task_fields(t)) + "\n")


PtstressTask()
