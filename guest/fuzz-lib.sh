# shellcheck shell=bash
# guest/fuzz's pure helpers: signatures, a finding's tasks, whether a
# replay reproduced a finding.  Sourced by guest/fuzz and by
# tests/unit/fuzz-lib, which checks them on fixed files.  Needs GUEST_DIR
# (guest/lib.sh) for scan-console.

# The signature of a slice: check__rule__verb of its first finding record.
# None for a "taint" finding (the engine saw the kernel's taint flags
# change after a step, docs/architecture.md): that is a kernel report,
# signed by the console's title as before the engine saw it
# (console_signature()); the record still gives the step's line and tasks
# (finding_tasks(), the prefix cut).
signature() {	# JSON-FILE
	local l c r v
	l=$(grep -m1 '"type":"finding","kind":"finding"' "$1") || return 0
	c=$(sed -n 's/.*"check":"\([^"]*\)".*/\1/p' <<<"$l")
	[ "$c" = taint ] && return 0
	r=$(sed -n 's/.*"rule":"\([^"]*\)".*/\1/p' <<<"$l")
	v=$(sed -n 's/.*"verb":"\([^"]*\)".*/\1/p' <<<"$l")
	echo "${c:-other}__${r:-none}__${v:-none}"
}

# check__rule__verb as minimize's --signature takes it, check/rule/verb:
# the first two separators only (a kernel report's title may have "__":
# "after __ptrace_unlink()").
min_signature() {	# SIGNATURE
	local s=${1/__//}
	echo "${s/__//}"
}

# The names of the first finding's tasks, comma-separated ("p19,tr3"):
# minimize's first pass starts from them even when the input's own replay
# kills the guest before writing its record.  A kernel report has no
# record: then the words of the last step, the one the kernel reported in
# (minimize ignores a word that names no task).
finding_tasks() {	# JSON-FILE STEPS
	local t
	t=$(grep -m1 '"type":"finding","kind":"finding"' "$1" 2>/dev/null |
		sed -n 's/.*"tasks":\[\([^]]*\)\].*/\1/p' | grep -o '"name":"[^"]*"' |
		sed 's/"name":"\(.*\)"/\1/' | paste -sd, -)
	[ -n "$t" ] || t=$(grep -v '^[[:space:]]*\(#\|$\)' "$2" 2>/dev/null | tail -n 1 |
		tr -s ' \t' '\n' | tail -n +2 | grep -E '^[A-Za-z_][A-Za-z0-9_.]*$' |
		grep -v '^SIG' | head -n 8 | paste -sd, -)
	echo "$t"
}

# The line of the statement that differed, in the replay that found a
# difference (JSON-FILE's first differential finding, in a file that
# guest/fuzz copied the steps to: build/fuzz-diff.PID/steps.sc), if the
# steps STEPS go on after it and are one statement a line (fuzz never
# draws a repeat block, which head -n could cut in two); nothing
# otherwise.  What follows that line never ran on the kernel under test:
# diff_minimize() hands the minimizer the steps up to it.
diff_cut_line() {	# JSON-FILE STEPS
	local l
	l=$(grep -m1 '"type":"finding","kind":"finding".*"check":"differential"' "$1" \
		2>/dev/null | grep -F '"file":"build/fuzz-diff.' |
		sed -n 's/.*"line":\([0-9]*\).*/\1/p')
	[ -n "$l" ] && [ "$l" -gt 0 ] && [ "$l" -lt "$(wc -l <"$2")" ] &&
		! grep -q '^[[:space:]]*repeat\b' "$2" && echo "$l"
	return 0
}

# A kernel report without a ptstress finding: console__KIND__TITLE
# (scan-console --signature: the report's first line without numbers).
console_signature() {	# CONSOLE-LOG
	local t
	t=$("$GUEST_DIR/scan-console" --signature "$1" 2>/dev/null)
	[ -n "$t" ] && [ "${t#scan-console}" = "$t" ] || t=kernel-report__untitled
	echo "console__$t"
}

# Whether signatures A and B (check__rule__verb) are one finding: equal,
# or one named rule broken after one verb, read through /proc status in
# one replay and ptrace_links in the other (ddmin_same_finding(),
# ptstress/lib/ddmin.c: which read sees a transition first is timing).
same_finding() {	# A B
	local ra rb
	[ "$1" = "$2" ] && return 0
	case $1 in proc__*|links__*) ra=${1#*__} ;; *) return 1 ;; esac
	case $2 in proc__*|links__*) rb=${2#*__} ;; *) return 1 ;; esac
	[ "${ra#none__}" = "$ra" ] && [ "$ra" = "$rb" ]
}

# Did the replay in run directory RD reproduce $sig (or $csig, the kernel
# report of the finding's slice)?  1 or 0.  Its JSON first: the finding's
# signature; when $sig is a kernel report's (console__KIND__...), the
# console showing a report of that kind, whenever it came; a scenario
# whose steps ended (its "steps-done" record) without it did not
# reproduce, whatever the console shows later (a crash in the teardown, which kills what is left: a
# reproducer of a ptstress finding must say what it does); a replay the
# guest died in did if the console's report is $sig or $csig.
crash_reproduces() {	# RD JSON-NAME
	local js cs
	js=$(signature "$1/$2" 2>/dev/null)
	if same_finding "$js" "$sig"; then
		echo 1
	elif [ "${sig#console__}" != "$sig" ] &&
		[ "$(kind_of "$(console_signature "$1/console.log")")" = "$(kind_of "$sig")" ]; then
		# The finding is a kernel report: in the steps or in the
		# teardown, the scenario made the kernel report one of its kind.
		# Any title, as syzkaller's reproducers accept any crash: a
		# corrupting bug shows different ones from run to run (m01:
		# "kernel BUG at kernel/exit.c", a NULL pointer dereference).
		echo 1
	elif grep -q '"type":"steps-done"' "$1/$2" 2>/dev/null; then
		echo 0
	else
		cs=$(console_signature "$1/console.log")
		[ "$cs" = "$sig" ] || { [ -n "$csig" ] && [ "$cs" = "$csig" ]; } && echo 1 || echo 0
	fi
}

# The kind of a console__KIND__TITLE signature (bug, warning, link-checker).
kind_of() {	# SIGNATURE
	local k=${1#console__}
	echo "${k%%__*}"
}
