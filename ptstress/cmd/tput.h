/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ptstress tput: throughput of ptstress's own tracer T driven through its
 * command channel, beside the same loop without the channel (--bare).
 */
#ifndef PTSTRESS_TPUT_H
#define PTSTRESS_TPUT_H

/*
 * argv[0] is "tput", then its options.  Installs the SIGINT/SIGTERM
 * handlers and makes this process a child subreaper itself (every process
 * it forks must come back to it).  Returns an enum ps_exit value; prints
 * the figures on stdout, errors on stderr.
 */
int cmd_tput(int argc, char **argv);

#endif /* PTSTRESS_TPUT_H */
