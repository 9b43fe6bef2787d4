# Common settings of the guest scripts; sourced, not run.
# Exit codes (docs/exit-codes.md): 0 pass, 1 kernel finding, 2 bad input,
# 3 harness error, 4 skip.

GUEST_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TOP_DIR=$(cd "$GUEST_DIR/.." && pwd)
PTSTRESS_CACHE=${PTSTRESS_CACHE:-/var/cache/ptstress}
KERNEL_TARBALL=${KERNEL_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
PROG=${PROG:-$(basename "$0")}

EXIT_PASS=0
EXIT_FINDING=1
EXIT_BADINPUT=2
EXIT_HARNESS=3
EXIT_SKIP=4

log() { echo "$PROG: $*" >&2; }
harness_error() { echo "$PROG: harness error: $*" >&2; exit $EXIT_HARNESS; }
bad_input() { echo "$PROG: $*" >&2; exit $EXIT_BADINPUT; }

# Serialise the machine's one heavy job (a kernel build or a QEMU run): the
# machine has 2 cores, and two at once make both slow and TCG timeouts lie.
machine_lock() {
	mkdir -p "$PTSTRESS_CACHE" || harness_error "cannot create $PTSTRESS_CACHE"
	exec 9>"$PTSTRESS_CACHE/machine.lock"
	if ! flock -n 9; then
		log "waiting for another kernel build or guest run to finish"
		flock 9 || harness_error "flock $PTSTRESS_CACHE/machine.lock"
	fi
}
