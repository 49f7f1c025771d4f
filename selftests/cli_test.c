// SPDX-License-Identifier: GPL-2.0-only
/*
 * cli_test.c - bad input: one line on stderr naming the problem, exit 2
 *
 * The table below has wrong inputs for every command: unknown and
 * misspelled options, missing and extra arguments, negative, zero and
 * huge values, malformed job, parameter, load, profile and result files,
 * missing targets, directories where a device or file belongs, targets
 * smaller than the job and options that exclude each other.  Each must end
 * in exactly one line on stderr that says what is wrong and where, exit
 * status 2 (not a signal), nothing on stdout, and nothing written: the
 * rows that name a file target get a 4 MiB file of random bytes whose
 * content is checked after each of them, and every row runs in a fresh
 * temporary directory that must still hold only that file afterwards.
 *
 * Rows that need a block device (too small for the job, direct I/O off the
 * 4096-byte logical block size) run against a loop device as root.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/loop.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "helpers/run.h"
#include "helpers/scratchdev.h"
#include "helpers/scratchfs.h"

#define MAX_ARGS 14

/*
 * In a row's arguments, @T is the 4 MiB file target, @D the temporary
 * directory (also the working directory), @F selftests/fixtures/badinput
 * and @X selftests/fixtures.
 */
struct bad_input {
	const char *args[MAX_ARGS];
	const char *says;	/* the error line must contain this... */
	const char *where;	/* ...and this: the option or file:line (or NULL) */
};

#define ROW(says, where, ...) { { __VA_ARGS__ }, says, where }

static const struct bad_input bad_inputs[] = {
	/* the command itself */
	ROW("missing command", NULL),
	ROW("unknown command", "frobnicate", "frobnicate"),
	ROW("did you mean 'list'", "'lst'", "lst"),
	ROW("unknown option", "--bogus", "--bogus"),

	/* list */
	ROW("unknown option '--bogus'", NULL, "list", "--bogus"),
	ROW("did you mean '--output'", "--ouput", "list", "--ouput", "json"),
	ROW("unknown option '-x'", NULL, "list", "-x"),
	ROW("output format 'xml'", NULL, "list", "-o", "xml"),
	ROW("needs a value", "'-o'", "list", "-o"),
	ROW("needs a value", "'--output'", "list", "--output"),
	ROW("unexpected argument", "extra", "list", "extra"),
	ROW("No such file", "--sysfs-root", "list", "--sysfs-root", "/nonexistent"),
	ROW("not a directory", "--sysfs-root", "list", "--sysfs-root=@T"),
	ROW("No such file", "--proc-root", "list", "--proc-root", "/nonexistent"),

	/* info */
	ROW("missing device", NULL, "info"),
	ROW("no such block device", "/nonexistent", "info", "/nonexistent"),
	ROW("is a directory", "@D", "info", "@D"),
	ROW("not a block device", "/dev/null", "info", "/dev/null"),
	ROW("not a block device", "@T", "info", "@T"),
	ROW("no such block device", "nosuchdev0", "info", "nosuchdev0"),
	ROW("unexpected argument", "'b'", "info", "a", "b"),
	ROW("output format", "yaml", "info", "-o", "yaml", "x"),
	ROW("did you mean '--output'", "--ouptut", "info", "--ouptut", "json", "x"),
	ROW("No such file", "--dev-root", "info", "--dev-root", "/nonexistent", "x"),

	/* guard */
	ROW("missing target", NULL, "guard"),
	ROW("no such file", "/nonexistent", "guard", "/nonexistent"),
	ROW("directory", "@D", "guard", "@D"),
	ROW("neither a block device nor a regular file", "/dev/null", "guard", "/dev/null"),
	ROW("needs a value", "--force-destroy", "guard", "@T", "--force-destroy"),
	ROW("No such file", "--force-destroy", "guard", "--force-destroy=/nonexistent",
	    "/dev/null"),
	ROW("did you mean '--force-destroy'", "--force", "guard", "--force", "/dev/null"),
	ROW("did you mean '--force-destroy'", "--frce-destroy", "guard", "--frce-destroy=@T",
	    "@T"),
	ROW("unknown option '--bogus'", NULL, "guard", "@T", "--bogus"),

	/* run: options and values */
	ROW("no job given", NULL, "run"),
	/* No filename: fio names a file after the job, which needs a size. */
	ROW("you need to specify size=", "x: ", "run", "--rw=read", "--name=x"),
	ROW("did you mean 'iodepth'", "--iodpeth=4", "run", "--iodpeth=4", "--filename=@T",
	    "--name=x"),
	ROW("did you mean '--replay'", "--repaly", "run", "--repaly=x.json"),
	ROW("did you mean '--output'", "--outptu", "run", "--name=x", "--filename=@T",
	    "--rw=read", "--outptu=r.json"),
	ROW("not supported", "--experimental_verify=1", "run", "--experimental_verify=1",
	    "--filename=@T",
	    "--name=x"),
	ROW("not supported", "--ioengine=mmap", "run", "--ioengine=mmap", "--filename=@T",
	    "--name=x"),
	ROW("unknown engine", "--ioengine=uring", "run", "--name=x", "--filename=@T",
	    "--rw=read", "--ioengine=uring"),
	ROW("use read, write", "--rw=raed", "run", "--name=x", "--filename=@T", "--rw=raed"),
	ROW("third (trim) value is not supported", "--bs=4k,4k,8k", "run", "--name=x",
	    "--filename=@T", "--rw=trim", "--bs=4k,4k,8k"),
	ROW("is not a size", "--bs=1e30", "run", "--name=x", "--filename=@T", "--rw=write",
	    "--bs=1e30"),
	ROW("is not a size", "--bs=-4k", "run", "--name=x", "--filename=@T", "--rw=write",
	    "--bs=-4k"),
	ROW("outside 512..1g", "--bs=0", "run", "--name=x", "--filename=@T", "--rw=write",
	    "--bs=0"),
	ROW("outside 512..1g", "--bs=2g", "run", "--name=x", "--filename=@T", "--rw=write",
	    "--bs=2g"),
	ROW("outside 512..1g", "--bs=100", "run", "--bs=100", "--filename=@T", "--name=x",
	    "--direct=1"),
	ROW("too big", "--size=99999999999999999999", "run", "--name=x", "--filename=@T",
	    "--rw=write", "--size=99999999999999999999"),
	ROW("not a size", "--size=-1", "run", "--name=x", "--filename=@T", "--rw=write",
	    "--size=-1"),
	ROW("percentage must be 1..100", "--size=200%", "run", "--name=x", "--filename=@T",
	    "--rw=write", "--size=200%"),
	ROW("not a size", "--offset=-1", "run", "--name=x", "--filename=@T", "--rw=write",
	    "--offset=-1"),
	ROW("out of range (1..65536)", "--iodepth=0", "run", "--name=x", "--filename=@T",
	    "--rw=write", "--iodepth=0"),
	ROW("not a whole number", "--iodepth=-1", "run", "--name=x", "--filename=@T",
	    "--rw=write", "--iodepth=-1"),
	ROW("out of range (1..65536)", "--iodepth=100000", "run", "--name=x", "--filename=@T",
	    "--rw=write", "--iodepth=100000"),
	ROW("over io_uring's ring limit of 32768", "--name=x", "run", "--name=x",
	    "--filename=@T", "--rw=write", "--ioengine=io_uring", "--iodepth=32769"),
	ROW("does not use ioengine=io_uring", "--sqpoll", "run", "--name=x", "--filename=@T",
	    "--rw=read", "--ioengine=libaio", "--sqpoll"),
	ROW("sqthread_poll needs ioengine=io_uring", "--name=x", "run", "--name=x",
	    "--filename=@T", "--rw=read", "--ioengine=psync", "--sqthread_poll=1"),
	ROW("out of range (1..4096)", "--numjobs=0", "run", "--name=x", "--filename=@T",
	    "--rw=write", "--numjobs=0"),
	ROW("out of range (1..4096)", "--numjobs=100000", "run", "--name=x", "--filename=@T",
	    "--rw=write", "--numjobs=100000"),
	ROW("4100 threads in all", "--name=b", "run", "--name=a", "--filename=@T", "--rw=write",
	    "--numjobs=4000", "--name=b", "--filename=@T", "--rw=write", "--numjobs=100"),
	ROW("names 2 CPUs", "numjobs", "run", "--name=x", "--filename=@T", "--rw=write",
	    "--numjobs=3", "--cpus_allowed=0-1"),
	ROW("CPU 9999 is not online", "cpus_allowed", "run", "--name=x", "--filename=@T",
	    "--rw=write", "--cpus_allowed=9999"),
	ROW("not online", "cpus_allowed", "run", "--ioengine=nop", "--cpus_allowed=4095",
	    "--name=x"),
	ROW("not an ascending CPU list", "--cpus_allowed=3-1", "run", "--name=x",
	    "--filename=@T", "--rw=write", "--cpus_allowed=3-1"),
	ROW("out of range (0..100)", "--rwmixread=150", "run", "--name=x", "--filename=@T",
	    "--rw=randrw", "--rwmixread=150"),
	ROW("not a duration", "--runtime=-1", "run", "--name=x", "--filename=@T",
	    "--rw=write", "--runtime=-1"),
	ROW("time_based needs runtime", "--name=x", "run", "--name=x", "--filename=@T",
	    "--rw=write", "--time_based"),
	ROW("a count from 1 to 1000", "--repeat=0", "run", "--name=x", "--filename=@T",
	    "--rw=write", "--repeat=0"),
	ROW("not a duration", "--interval=soon", "run", "--interval=soon", "--ioengine=nop",
	    "--name=x"),
	ROW("not a duration", "--interval=0", "run", "--interval=0", "--ioengine=nop",
	    "--name=x"),
	ROW("needs a value", "'--csv'", "run", "--name=x", "--filename=@T", "--rw=write",
	    "--csv"),
	ROW("output format 'xml'", NULL, "run", "--name=x", "--filename=@T", "--rw=write", "-o",
	    "xml"),
	/* run: targets (the file's block size depends on the machine's /tmp) */
	ROW("block sizes, offset and ba must be multiples of", "@T",
	    "run", "--name=x", "--filename=@T", "--rw=write", "--direct=1", "--bs=1000"),
	ROW("must be multiples of", "@T", "run", "--name=x",
	    "--filename=@T", "--rw=write", "--direct=1", "--bs=4k", "--offset=100"),
	/* A reader's short file is laid out first, as fio does, unless create_on_open. */
	ROW("shorter than offset+size", "@T", "run", "--name=x", "--filename=@T", "--rw=read",
	    "--size=1g", "--create_on_open=1"),
	ROW("shorter than offset+size", "@T", "run", "--name=x", "--filename=@T", "--rw=read",
	    "--offset=3m", "--size=2m", "--create_on_open=1"),
	ROW("neither a block device", "/dev/null", "run", "--filename=/dev/null", "--rw=read",
	    "--name=x"),
	ROW("is a directory", "@D", "run", "--filename=@D", "--rw=read", "--name=x"),
	ROW("no such file", "/nonexistent/x", "run", "--name=x", "--filename=/nonexistent/x",
	    "--rw=read"),
	ROW("cannot write there", "--output=/nonexistent/r.json", "run",
	    "--output=/nonexistent/r.json", "--ioengine=nop", "--name=x"),
	ROW("is a directory", "--output=@D", "run", "--output=@D", "--name=x", "--filename=@T",
	    "--rw=write"),
	/* run: files */
	ROW("did you mean 'iodepth'", "bad-line.fio:6:", "run", "@F/bad-line.fio"),
	ROW("not a size", "bad-value.fio:8:", "run", "@F/bad-value.fio"),
	ROW("this is not an option", "not-a-line.fio:5:", "run", "@F/not-a-line.fio"),
	ROW("cannot open", "/nonexistent.fio", "run", "/nonexistent.fio"),
	ROW("not a 'blkqual run' result", "not-result.json", "run", "--replay=@F/not-result.json"),
	ROW("ends in the middle of the document", "truncated.json:14:", "run",
	    "--replay=@F/truncated.json"),
	/* run: options that exclude each other */
	ROW("--replay and --stripe do not go together", NULL, "run", "--replay=@X/report/run.json",
	    "--stripe=@T,@T"),
	ROW("--replay cannot add jobs", "--name=x", "run", "--replay=@X/report/run.json",
	    "--name=x", "--filename=@T", "--rw=write"),

	/* raid */
	ROW("missing subcommand", NULL, "raid"),
	ROW("unknown subcommand 'frob'", NULL, "raid", "frob"),
	ROW("missing --chunk", NULL, "raid", "plan"),
	ROW("not a multiple of 4 KiB", "--chunk=0", "raid", "plan", "--chunk", "0", "@T", "@T"),
	ROW("not a multiple of 4 KiB", "--chunk=-4k", "raid", "plan", "--chunk", "-4k", "@T",
	    "@T"),
	ROW("not a multiple of 4 KiB", "--chunk=99999999999999999999", "raid", "plan", "--chunk",
	    "99999999999999999999", "@T", "@T"),
	ROW("did you mean '--chunk'", "--chnk", "raid", "plan", "--chnk", "64k", "a", "b"),
	ROW("unknown option '--bogus'", NULL, "raid", "plan", "--bogus"),
	ROW("is a directory", "@D", "raid", "plan", "--chunk", "64k", "@D", "@D"),
	ROW("no such block device", "/nonexistent", "raid", "plan", "--chunk", "64k",
	    "/nonexistent", "/nonexistent2"),
	ROW("not a block device", "@T", "raid", "create", "--chunk", "64k", "@T", "@T"),
	ROW("use original or alternate", "--layout=weird", "raid", "create", "--chunk", "64k",
	    "--layout", "weird", "@T", "@T"),
	ROW("needs at least two members", NULL, "raid", "create", "--chunk", "64k", "@T"),
	ROW("needs exactly one md device", NULL, "raid", "destroy", "a", "b"),

	/* fs */
	ROW("missing subcommand", NULL, "fs"),
	ROW("unknown subcommand 'frob'", NULL, "fs", "frob"),
	ROW("needs exactly one device", NULL, "fs", "create"),
	ROW("needs exactly one device", NULL, "fs", "destroy", "a", "b"),
	ROW("a count from 1 to 256", "--sw=0", "fs", "create", "--sw", "0", "--su", "64k", "@T"),
	ROW("a multiple of 4 KiB", "--su=-1", "fs", "create", "--su", "-1", "--sw", "2", "@T"),
	ROW("--su and --sw go together", NULL, "fs", "create", "--su", "64k", "@T"),
	ROW("did you mean '--mount'", "--muont", "fs", "create", "--muont", "/mnt", "@T"),
	ROW("unknown option '--bogus'", NULL, "fs", "create", "--bogus", "@T"),
	ROW("did you mean '--force-destroy'", "--force-destory", "fs", "destroy",
	    "--force-destory=x", "y"),
	ROW("is a directory", "@D", "fs", "create", "@D"),
	ROW("no such file or device", "/nonexistent", "fs", "create", "/nonexistent"),
	ROW("too small for XFS", "@T", "fs", "create", "@T"),

	/* stripe-tune */
	ROW("the members come first", NULL, "stripe-tune"),
	ROW("missing --chunks", NULL, "stripe-tune", "@T,@T", "--name=x", "--rw=write"),
	ROW("did you mean '--chunks'", "--chnks", "stripe-tune", "@T,@T", "--chnks", "64k",
	    "--name=x"),
	ROW("did you mean 'iodepth'", "--iodpeth=4", "stripe-tune", "@T,@T", "--chunks", "64k",
	    "--name=x", "--rw=write", "--iodpeth=4"),
	ROW("not a multiple of 4 KiB", "--chunks", "stripe-tune", "@T,@T", "--chunks", "0",
	    "--name=x", "--rw=write"),
	ROW("not a multiple of 4 KiB", "--chunks", "stripe-tune", "@T,@T", "--chunks",
	    "64k,-4k", "--name=x", "--rw=write"),
	ROW("use --layout=original or --layout=alternate", "--layout", "stripe-tune", "@T,@T",
	    "--chunks", "64k", "--layout", "weird", "--name=x"),
	ROW("use --backend=stripe or --backend=md", "--backend=foo", "stripe-tune", "@T,@T",
	    "--chunks", "64k", "--backend=foo", "--name=x"),
	ROW("out of range (1..4096)", "--numjobs=0", "stripe-tune", "@T,@T", "--chunks", "64k",
	    "--name=x", "--rw=write", "--runtime=1", "--numjobs=0"),
	ROW("unknown option 'bogus'", "--bogus", "stripe-tune", "@T,@T", "--chunks", "64k",
	    "--bogus"),

	/* compare */
	ROW("needs BASE and NEW", NULL, "compare"),
	ROW("needs BASE and NEW", NULL, "compare", "a", "b", "c"),
	ROW("did you mean '--threshold'", "--treshold", "compare", "--treshold", "5", "a", "b"),
	ROW("unknown option '--bogus'", NULL, "compare", "--bogus", "a", "b"),
	ROW("a percentage above 0", "--threshold=-5", "compare", "--threshold", "-5",
	    "@X/report/run.json", "@X/report/run.json"),
	ROW("a percentage above 0", "--threshold=1e30", "compare", "--threshold", "1e30",
	    "@X/report/run.json", "@X/report/run.json"),
	ROW("a percentage above 50", "--confidence=150", "compare", "--confidence", "150",
	    "@X/report/run.json", "@X/report/run.json"),
	ROW("unknown output format 'xml'", NULL, "compare", "-o", "xml", "@X/report/run.json",
	    "@X/report/run.json"),
	ROW("not a 'blkqual run' or fio JSON result", "not-result.json", "compare", "@F/not-result.json",
	    "@X/report/run.json"),
	ROW("ends in the middle of the document", "truncated.json:14:", "compare",
	    "@F/truncated.json", "@X/report/run.json"),
	ROW("No such file", "/nonexistent.json", "compare", "/nonexistent.json",
	    "@X/report/run.json"),
	ROW("not a 'blkqual run' or fio JSON result (no \"jobs\")", "qualify.json", "compare",
	    "@X/report/qualify.json", "@X/report/run.json"),

	/* latency */
	ROW("no target given", NULL, "latency"),
	ROW("more than one target", "'extra'", "latency", "-c", "3", "@D", "extra"),
	ROW("did you mean '-count'", "--cuont", "latency", "--cuont", "5", "@D"),
	ROW("did you mean '-interval'", "-intervl", "latency", "-intervl", "1", "@D"),
	ROW("unknown option '--bogus'", NULL, "latency", "--bogus", "@D"),
	ROW("not a count", "-c -5", "latency", "-c", "-5", "@D"),
	ROW("above zero", "-s 0", "latency", "-s", "0", "@D"),
	ROW("too large", "-s 1e30", "latency", "-s", "1e30", "@D"),
	ROW("too large", "-s 99999999999999999999", "latency", "-s", "99999999999999999999",
	    "@D"),
	ROW("not a time", "-i -1", "latency", "-i", "-1", "@D"),
	ROW("No such file", "/nonexistent", "latency", "-c", "3", "/nonexistent"),
	ROW("give -W three times", "-W", "latency", "-c", "3", "-W", "@T"),
	ROW("is not a multiple of", "-s", "latency", "-c", "3", "-WWW", "-D", "-s", "1000",
	    "@T"),
	ROW("does not fit", "-S", "latency", "-c", "3", "-WWW", "-S", "1g", "@T"),
	ROW("past the end", "-o", "latency", "-c", "3", "-WWW", "-o", "8m", "@T"),
	ROW("larger than Linux moves at once", "-s", "latency", "-c", "3", "-WWW", "-s",
	    "100000000000", "@T"),
	ROW("-A (-async) and -U (-uring) do not go together", NULL, "latency", "-c", "3", "-A",
	    "-U", "@D"),

	/* fileio */
	ROW("missing command", NULL, "fileio"),
	ROW("unknown command 'frob'", NULL, "fileio", "frob"),
	ROW("did you mean 'prepare'", "'prepar'", "fileio", "prepar"),
	ROW("two commands given", "'run'", "fileio", "prepare", "run"),
	ROW("did you mean '--file-test-mode'", "--file-tset-mode", "fileio",
	    "--file-tset-mode=seqrd", "run"),
	ROW("unknown option '--bogus'", NULL, "fileio", "--bogus", "run"),
	ROW("from 1 to 1000000", "--file-num", "fileio", "--file-num=0", "prepare"),
	ROW("from 1 to 1000000", "--file-num", "fileio", "--file-num=-1", "prepare"),
	ROW("not a size", "--file-total-size", "fileio",
	    "--file-total-size=99999999999999999999", "prepare"),
	ROW("not a size", "--file-total-size", "fileio", "--file-total-size=0", "prepare"),
	ROW("from 1 byte to 1G", "--file-block-size", "fileio", "--file-block-size=0",
	    "--file-test-mode=seqrd", "run"),
	ROW("from 1 byte to 1G", "--file-block-size", "fileio", "--file-block-size=1e30",
	    "--file-test-mode=seqrd", "run"),
	ROW("direct I/O needs a multiple of 512", "--file-block-size", "fileio",
	    "--file-extra-flags=direct", "--file-block-size=1000", "--file-test-mode=seqrd",
	    "run"),
	ROW("unknown mode 'seqrdd'", "--file-test-mode", "fileio", "--file-test-mode=seqrdd",
	    "run"),
	ROW("from 1 to 4096", "--threads", "fileio", "--threads=100000",
	    "--file-test-mode=seqrd", "run"),
	ROW("from 1 to 4096", "--threads", "fileio", "--threads=0", "--file-test-mode=seqrd",
	    "run"),
	ROW("not a ratio", "--file-rw-ratio", "fileio", "--file-rw-ratio=-1",
	    "--file-test-mode=rndrw", "run"),
	ROW("not implemented", "--file-io-mode", "fileio", "--file-io-mode=async",
	    "--file-test-mode=seqrd", "run"),
	ROW("No such file", "/nonexistent", "fileio", "--directory=/nonexistent", "prepare"),
	ROW("Not a directory", "@T", "fileio", "--directory=@T", "prepare"),

	/* files */
	ROW("needs -f PARMFILE or key=value", NULL, "files"),
	ROW("unexpected argument 'foo'", NULL, "files", "foo"),
	ROW("unknown option '--bogus'", NULL, "files", "--bogus"),
	ROW("did you mean '--output-format'", "--output-fromat", "files", "anchor=@D",
	    "--output-fromat=json"),
	ROW("-f needs a parameter file", NULL, "files", "-f"),
	ROW("No such file", "/nonexistent.parm", "files", "-f", "/nonexistent.parm"),
	ROW("unknown keyword in an fwd (did you mean 'xfersizes'?)", "bad-keyword.parm:4:",
	    "files", "-f",
	    "@F/bad-keyword.parm"),
	ROW("from 0 to 32", "depth=-1", "files", "anchor=@D", "depth=-1", "width=1", "files=1",
	    "size=4k"),
	ROW("from 1 to", "files=0", "files", "anchor=@D", "depth=1", "width=1", "files=0",
	    "size=4k"),
	ROW("is not a size", "size=99999999999999999999", "files", "anchor=@D", "depth=1",
	    "width=1", "files=1", "size=99999999999999999999"),
	ROW("from 1 to 4096", "threads=100000", "files", "anchor=@D", "depth=1", "width=1",
	    "files=1", "size=4k", "threads=100000"),
	ROW("from 1 to 4096", "threads=0", "files", "anchor=@D", "depth=1", "width=1",
	    "files=1", "size=4k", "threads=0"),
	ROW("not a size above 0", "xfersize=0", "files", "anchor=@D", "depth=1", "width=1",
	    "files=1", "size=4k", "xfersize=0"),
	ROW("did you mean 'operation='", "opertion=read", "files", "anchor=@D", "depth=1", "width=1",
	    "files=1", "size=4k", "opertion=read"),
	ROW("(spell keywords in full here)", "zzz=1", "files", "anchor=@D", "zzz=1"),
	ROW("is not a directory", "@T", "files", "anchor=@T", "depth=1", "width=1", "files=1",
	    "size=4k"),
	ROW("at least 1", "-e -5", "files", "-e", "-5", "anchor=@D"),
	ROW("text or json", "--output-format=xml", "files", "--output-format=xml", "anchor=@D"),
	ROW("-cy and -cn do not go together", NULL, "files", "-cy", "-cn", "anchor=@D",
	    "depth=1", "width=1", "files=1", "size=4k"),

	/* replay */
	ROW("you need to specify NPROCS", NULL, "replay"),
	ROW("two client counts", NULL, "replay", "-c", "@X/replay/small.txt", "1", "2"),
	ROW("unknown operation 'Frobnicate'", "bad-line.txt:4:", "replay", "-c",
	    "@F/bad-line.txt", "1"),
	ROW("cannot open", "/nonexistent.txt", "replay", "-c", "/nonexistent.txt", "1"),
	ROW("not a regular file", "@D", "replay", "-c", "@D", "1"),
	ROW("a count from 1 to 10000", "NPROCS 0", "replay", "-c", "@X/replay/small.txt", "0"),
	ROW("a count from 1 to 10000", "NPROCS 100000", "replay", "-c", "@X/replay/small.txt",
	    "100000"),
	ROW("at most 10000", "5000 x 3", "replay", "-c", "@X/replay/small.txt",
	    "--clients-per-process", "3", "5000"),
	ROW("did you mean '--timelimit'", "--timelimt", "replay", "-c", "@X/replay/small.txt",
	    "--timelimt", "5", "1"),
	ROW("unknown option '--bogus'", NULL, "replay", "--bogus", "1"),
	ROW("a number of seconds above 0", "-t 0", "replay", "-c", "@X/replay/small.txt", "-t",
	    "0", "1"),
	ROW("a number of seconds above 0", "-t -5", "replay", "-c", "@X/replay/small.txt",
	    "-t", "-5", "1"),
	ROW("not a directory", "-D @T", "replay", "-c", "@X/replay/small.txt", "-D", "@T", "1"),
	ROW("only the fileio backend", "-B nfs", "replay", "-c", "@X/replay/small.txt", "-B",
	    "nfs", "1"),
	ROW("unknown output format 'xml'", NULL, "replay", "-o", "xml", "1"),

	/* check */
	ROW("missing device", NULL, "check"),
	ROW("one device at a time", "'extra'", "check", "@T", "extra"),
	ROW("did you mean '--only'", "--olny", "check", "--olny", "limits", "@T"),
	ROW("unknown option '--bogus'", NULL, "check", "--bogus", "@T"),
	ROW("did you mean 'limits'", "--only", "check", "--only", "limts", "@T"),
	ROW("unknown check 'frob'", "--only", "check", "--only", "frob", "@T"),
	ROW("not a block device", "@T", "check", "@T"),
	ROW("is a directory", "@D", "check", "@D"),
	ROW("no such block device", "/nonexistent", "check", "/nonexistent"),
	ROW("--list takes no device", "@T", "check", "--list", "@T"),

	/* qualify */
	ROW("no device given", NULL, "qualify"),
	ROW("no device given", NULL, "qualify", "--profile", "quick"),
	ROW("one device at a time", "'extra'", "qualify", "--profile", "quick", "@T", "extra"),
	ROW("did you mean '--profile'", "--porfile", "qualify", "--porfile", "quick", "@T"),
	ROW("unknown option '--bogus'", NULL, "qualify", "--bogus", "@T"),
	ROW("did you mean 'quick'", "--profile=quik", "qualify", "--profile", "quik", "@T"),
	ROW("no such profile", "--profile=nosuch", "qualify", "--profile", "nosuch", "@T"),
	ROW("unknown key 'rund_time'", "bad-key.ini:6:", "qualify", "--profile",
	    "@F/bad-key.ini", "@T"),
	ROW("not a block device", "@T", "qualify", "--profile", "quick", "@T"),
	ROW("is a directory", "@D", "qualify", "--profile", "quick", "@D"),
	ROW("No such file", "--resume=/nonexistent", "qualify", "--resume", "/nonexistent"),
	ROW("ends in the middle of the document", "truncated.json:14:", "qualify", "--resume",
	    "@F/truncated.json"),
	ROW("not a blkqual qualify state file", "--resume=", "qualify", "--resume",
	    "@F/not-result.json"),
	ROW("unknown output format 'xml'", NULL, "qualify", "--profile", "quick", "-o", "xml",
	    "@T"),
	ROW("--list-profiles takes no device", "'extra'", "qualify", "--list-profiles",
	    "extra"),

	/* report */
	ROW("needs exactly one result file", NULL, "report"),
	ROW("needs exactly one result file", NULL, "report", "a", "b"),
	ROW("did you mean '--output'", "--ouptut", "report", "--ouptut", "x.html",
	    "@X/report/run.json"),
	ROW("unknown option '--bogus'", NULL, "report", "--bogus", "x"),
	ROW("needs a value", "'-o'", "report", "-o"),
	ROW("No such file", "/nonexistent.json", "report", "/nonexistent.json"),
	ROW("not a blkqual or fio JSON result", "not-result.json", "report", "@F/not-result.json"),
	ROW("ends in the middle of the document", "truncated.json:14:", "report",
	    "@F/truncated.json"),
	ROW("cannot write there", "-o /nonexistent/x.html", "report", "-o",
	    "/nonexistent/x.html", "@X/report/run.json"),
	ROW("is a directory", "-o @D", "report", "-o", "@D", "@X/report/run.json"),

	/* verify */
	ROW("--verify-state FILE is required", NULL, "verify", "@T"),
	ROW("at most one target", NULL, "verify", "--verify-state", "@F/not-result.json", "a",
	    "b"),
	ROW("did you mean '--verify-state'", "--verify-stat", "verify", "--verify-stat", "x",
	    "@T"),
	ROW("unknown option '--bogus'", NULL, "verify", "--bogus"),
	ROW("No such file", "/nonexistent", "verify", "--verify-state", "/nonexistent", "@T"),
	ROW("not a blkqual verify state file", "not-result.json", "verify", "--verify-state",
	    "@F/not-result.json", "@T"),

	/* fleet */
	ROW("needs a results directory", NULL, "fleet"),
	ROW("did you mean '--threshold'", "--treshold", "fleet", "--treshold", "3",
	    "@X/fleet/run-quiet"),
	ROW("unknown option '--bogus'", NULL, "fleet", "--bogus", "x"),
	ROW("a number from 0 to", "--threshold=-1", "fleet", "--threshold", "-1",
	    "@X/fleet/run-quiet"),
	ROW("a number from 0 to", "--threshold=1e30", "fleet", "--threshold", "1e30",
	    "@X/fleet/run-quiet"),
	ROW("a number from 0 to", "--min-diff=-5", "fleet", "--min-diff", "-5",
	    "@X/fleet/run-quiet"),
	ROW("unknown output format 'xml'", NULL, "fleet", "-o", "xml", "@X/fleet/run-quiet"),
	ROW("No such file", "/nonexistent", "fleet", "/nonexistent"),
	ROW("neither a run nor a qualify result", "not-result.json", "fleet",
	    "@F/not-result.json"),
	ROW("ends in the middle of the document", "truncated.json:14:", "fleet",
	    "@F/truncated.json"),
	ROW("neither a results directory nor a .json result", "@T", "fleet", "@T"),
	ROW("cannot write there", "--html=/nonexistent/x.html", "fleet", "--html",
	    "/nonexistent/x.html", "@X/fleet/run-quiet"),
};

/* What a row's @ names stand for. */
struct places {
	char target[PATH_MAX];
	char dir[PATH_MAX];
	char fixtures[PATH_MAX];
	char badinput[PATH_MAX];
};

/* @T, @D, @F and @X replaced in @in; the result in @out. */
static void expand(const struct places *pl, const char *in, char *out, size_t len)
{
	size_t n = 0;

	for (const char *p = in; *p && n + 1 < len; p++) {
		const char *with = NULL;

		if (p[0] == '@') {
			switch (p[1]) {
			case 'T': with = pl->target; break;
			case 'D': with = pl->dir; break;
			case 'F': with = pl->badinput; break;
			case 'X': with = pl->fixtures; break;
			}
		}
		if (!with) {
			out[n++] = *p;
			continue;
		}
		n += snprintf(out + n, len - n, "%s", with);
		if (n >= len)
			n = len - 1;
		p++;
	}
	out[n] = '\0';
}

/* Names in @dir other than "." and ".." and @keep. */
static int stray_entries(const char *dir, const char *keep, char *first, size_t len)
{
	struct dirent *de;
	DIR *d = opendir(dir);
	int n = 0;

	if (!d)
		return -1;
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..") ||
		    !strcmp(de->d_name, keep))
			continue;
		if (!n++)
			snprintf(first, len, "%s", de->d_name);
	}
	closedir(d);
	return n;
}

/* One bad input: refused in one line that says @says and @where, exit 2, no stdout. */
static void expect_refused(struct __test_metadata *_metadata, const char *const *argv,
			   const char *says, const char *where)
{
	struct run_result r;
	char shown[1024] = "";

	for (int j = 1; argv[j]; j++) {
		strncat(shown, " ", sizeof(shown) - strlen(shown) - 1);
		strncat(shown, argv[j], sizeof(shown) - strlen(shown) - 1);
	}
	ASSERT_EQ(0, run_argv(argv, &r));
	EXPECT_EQ(2, r.status) TH_LOG("blkqual%s: exit %d, stderr '%s'", shown, r.status, r.err);
	EXPECT_EQ(1, count_lines(r.err)) TH_LOG("blkqual%s: stderr '%s'", shown, r.err);
	EXPECT_STREQ("", r.out) TH_LOG("blkqual%s: stdout '%s'", shown, r.out);
	EXPECT_EQ(0, strncmp(r.err, "blkqual", 7)) TH_LOG("blkqual%s: '%s'", shown, r.err);
	EXPECT_NE(NULL, strstr(r.err, says))
		TH_LOG("blkqual%s: '%s' lacks '%s'", shown, r.err, says);
	if (where) {
		EXPECT_NE(NULL, strstr(r.err, where))
			TH_LOG("blkqual%s: '%s' does not say where ('%s')", shown, r.err, where);
	}
	run_result_free(&r);
}

FIXTURE(table)
{
	struct prep p;
	struct places pl;
	char blkqual[PATH_MAX];
	char old_cwd[PATH_MAX];
	uint64_t sum;
	off_t size;
};

/*
 * A 4 MiB file of random bytes in a fresh directory, which becomes the
 * working directory.  Setup only records failures (see struct prep), so
 * teardown always removes what was made.
 */
FIXTURE_SETUP(table)
{
	struct places *pl = &self->pl;

	if (!realpath(blkqual_path(), self->blkqual) ||
	    !realpath(srctree_path(), pl->fixtures) || !getcwd(self->old_cwd, PATH_MAX)) {
		prep_fail(&self->p, "finding blkqual and the source tree", -errno);
		return;
	}
	strncat(pl->fixtures, "/selftests/fixtures", PATH_MAX - strlen(pl->fixtures) - 1);
	snprintf(pl->badinput, PATH_MAX, "%.*s/badinput", PATH_MAX - 16, pl->fixtures);
	snprintf(pl->dir, PATH_MAX, "/tmp/blkqual-badinput.XXXXXX");
	if (!mkdtemp(pl->dir)) {
		pl->dir[0] = '\0';
		prep_fail(&self->p, "mkdtemp", -errno);
		return;
	}
	snprintf(pl->target, PATH_MAX, "%.*s/target.img", PATH_MAX - 16, pl->dir);
	self->size = 4 << 20;
	prep_fail(&self->p, "writing the target", random_file(pl->target, self->size));
	if (prep_ok(&self->p))
		prep_fail(&self->p, "checksum of the target",
			  checksum_path(pl->target, &self->sum));
	if (prep_ok(&self->p))
		prep_fail(&self->p, "chdir", chdir(pl->dir) ? -errno : 0);
}

FIXTURE_TEARDOWN(table)
{
	char path[PATH_MAX * 2];
	struct dirent *de;
	DIR *d;

	if (!self->pl.dir[0])
		return;
	if (self->old_cwd[0] && chdir(self->old_cwd))
		TH_LOG("chdir %s: %s", self->old_cwd, strerror(errno));
	/* A failed row may have left something: remove what is there, one level. */
	d = opendir(self->pl.dir);
	while (d && (de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		snprintf(path, sizeof(path), "%s/%s", self->pl.dir, de->d_name);
		if (unlink(path))
			rmdir(path);
	}
	if (d)
		closedir(d);
	rmdir(self->pl.dir);
}

TEST_F(table, bad_input_table)
{
	PREP_READY(&self->p);
	for (size_t i = 0; i < ARRAY_SIZE(bad_inputs); i++) {
		const struct bad_input *b = &bad_inputs[i];
		char args[MAX_ARGS][PATH_MAX + 64], where[PATH_MAX + 64], stray[256];
		const char *argv[MAX_ARGS + 2] = { self->blkqual };
		bool names_target = false;
		struct stat st;
		uint64_t sum;
		int n = 1;

		for (int j = 0; j < MAX_ARGS && b->args[j]; j++) {
			expand(&self->pl, b->args[j], args[j], sizeof(args[j]));
			names_target |= strstr(b->args[j], "@T") != NULL;
			argv[n++] = args[j];
		}
		argv[n] = NULL;
		if (b->where)
			expand(&self->pl, b->where, where, sizeof(where));
		expect_refused(_metadata, argv, b->says, b->where ? where : NULL);
		/* Nothing written: the target as it was, and nothing new beside it. */
		if (names_target) {
			ASSERT_EQ(0, stat(self->pl.target, &st));
			EXPECT_EQ(self->size, st.st_size) TH_LOG("row %zu: target resized", i);
			ASSERT_EQ(0, checksum_path(self->pl.target, &sum));
			EXPECT_EQ(self->sum, sum)
				TH_LOG("row %zu (%s): target written", i, b->says);
		}
		EXPECT_EQ(0, stray_entries(self->pl.dir, "target.img", stray, sizeof(stray)))
			TH_LOG("row %zu (%s) left '%s' behind", i, b->says, stray);
	}
}

/*
 * numjobs above the CPUs this machine has online, pinned to all of them:
 * the row depends on the machine, so it is made here.
 */
TEST_F(table, numjobs_above_online_cpus)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	char numjobs[64], allowed[64], filename[PATH_MAX + 16], says[160];
	const char *argv[] = { self->blkqual, "run", "--name=x", filename, "--rw=write",
			       numjobs, allowed, NULL };
	uint64_t sum;

	PREP_READY(&self->p);
	ASSERT_LT(0, cpus);
	snprintf(filename, sizeof(filename), "--filename=%s", self->pl.target);
	snprintf(numjobs, sizeof(numjobs), "--numjobs=%ld", cpus + 1);
	snprintf(allowed, sizeof(allowed), "--cpus_allowed=0-%ld", cpus - 1);
	snprintf(says, sizeof(says), "numjobs=%ld but cpus_allowed=0-%ld names %ld CPUs",
		 cpus + 1, cpus - 1, cpus);
	expect_refused(_metadata, argv, says, "numjobs");
	ASSERT_EQ(0, checksum_path(self->pl.target, &sum));
	EXPECT_EQ(self->sum, sum);
}

TEST(help_and_version)
{
	struct run_result r;

	ASSERT_EQ(0, run_blkqual(&r, "--help", NULL));
	EXPECT_EQ(0, r.status);
	EXPECT_NE(NULL, strstr(r.out, "list"));
	EXPECT_NE(NULL, strstr(r.out, "guard"));
	run_result_free(&r);
	ASSERT_EQ(0, run_blkqual(&r, "--version", NULL));
	EXPECT_EQ(0, r.status);
	EXPECT_EQ(0, strncmp(r.out, "blkqual ", 8));
	run_result_free(&r);
	ASSERT_EQ(0, run_blkqual(&r, "info", "--help", NULL));
	EXPECT_EQ(0, r.status);
	EXPECT_NE(NULL, strstr(r.out, "usage: blkqual info"));
	run_result_free(&r);
}

/*
 * Targets and input files the user may not read or write: each command
 * names the permission problem.  Root may read anything, so as root the
 * commands run as nobody.
 */
TEST(no_permission)
{
	char dir[] = "/tmp/blkqual-cli.XXXXXX", file[64], opt[96];
	const char *const cmds[][5] = {
		{ "guard", file },
		{ "run", "--name=x", opt, "--rw=read" },
		{ "run", file },
		{ "latency", "-c", "1", file },
		{ "files", "-f", file },
		{ "compare", file, file },
		{ "report", file },
		{ "verify", "--verify-state", file },
		{ "qualify", "--profile", file, file },
	};
	int fd;

	ASSERT_NE(NULL, mkdtemp(dir));
	snprintf(file, sizeof(file), "%s/readonly.img", dir);
	snprintf(opt, sizeof(opt), "--filename=%s", file);
	fd = open(file, O_CREAT | O_WRONLY, 0400);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ftruncate(fd, 4096));
	close(fd);
	ASSERT_EQ(0, chmod(dir, 0755));
	for (size_t i = 0; i < ARRAY_SIZE(cmds); i++) {
		const char *argv[12];
		int n = 0;

		if (geteuid() == 0) {
			argv[n++] = "setpriv";
			argv[n++] = "--reuid=65534";
			argv[n++] = "--regid=65534";
			argv[n++] = "--clear-groups";
		}
		argv[n++] = blkqual_path();
		for (int j = 0; j < 5 && cmds[i][j]; j++)
			argv[n++] = cmds[i][j];
		argv[n] = NULL;
		expect_refused(_metadata, argv, "Permission denied", file);
	}
	unlink(file);
	rmdir(dir);
}

/* A 64 MiB loop device with 4096-byte logical blocks. */
FIXTURE(dev4k)
{
	struct prep p;
	struct scratch s;
};

FIXTURE_SETUP(dev4k)
{
	scratch_init(&self->s);
	scratch_device_lbs(&self->p, &self->s, 64 << 20, 4096);
}

FIXTURE_TEARDOWN(dev4k)
{
	scratch_destroy(&self->s);
}

/* A device smaller than the job, or direct I/O off its block size: refused, nothing written. */
TEST_F(dev4k, too_small_or_misaligned)
{
	static const struct bad_input rows[] = {
		ROW("multiples of the logical block size 4096", "@T", "run", "--name=x",
		    "--filename=@T", "--rw=write", "--direct=1", "--bs=1k"),
		ROW("multiples of the logical block size 4096", "@T", "run", "--name=x",
		    "--filename=@T", "--rw=write", "--direct=1", "--bs=4k", "--offset=1k"),
		ROW("multiples of the logical block size 4096", "@T", "run", "--name=x",
		    "--filename=@T", "--rw=randwrite", "--direct=1", "--bs=4k", "--ba=512"),
		ROW("offset+size=134217728 is past the end", "@T", "run", "--name=x",
		    "--filename=@T", "--rw=write", "--size=128m"),
		ROW("offset=67108864 is past the end", "@T", "run", "--name=x", "--filename=@T",
		    "--rw=write", "--offset=64m"),
		ROW("past the end", "@T", "run", "--name=x", "--filename=@T", "--rw=randwrite",
		    "--offset=60m", "--size=8m"),
		ROW("not a multiple of 4096", "-s", "latency", "-WWW", "-D", "-s", "1k", "@T"),
		ROW("does not fit", "-S", "latency", "-WWW", "-S", "128m", "@T"),
		ROW("too small for XFS", "@T", "fs", "create", "@T"),
	};
	struct places pl = { 0 };
	uint64_t before, after;

	PREP_READY(&self->p);
	snprintf(pl.target, sizeof(pl.target), "%s", self->s.dev);
	ASSERT_EQ(0, checksum_path(self->s.dev, &before));
	for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
		char args[MAX_ARGS][PATH_MAX + 64], where[PATH_MAX + 64];
		const char *argv[MAX_ARGS + 2] = { blkqual_path() };
		int n = 1;

		for (int j = 0; j < MAX_ARGS && rows[i].args[j]; j++) {
			expand(&pl, rows[i].args[j], args[j], sizeof(args[j]));
			argv[n++] = args[j];
		}
		argv[n] = NULL;
		expand(&pl, rows[i].where, where, sizeof(where));
		expect_refused(_metadata, argv, rows[i].says, where);
		ASSERT_EQ(0, checksum_path(self->s.dev, &after));
		EXPECT_EQ(before, after) TH_LOG("row %zu (%s): device written", i, rows[i].says);
	}
}

FIXTURE(xfs4k)
{
	struct prep p;
	struct scratchfs fs;
};

FIXTURE_SETUP(xfs4k)
{
	scratchfs_init(&self->fs);
	scratchfs_xfs_lbs(&self->p, &self->fs, 300 << 20, 4096);
}

FIXTURE_TEARDOWN(xfs4k)
{
	scratchfs_destroy(&self->fs);
}

/* A file's direct I/O alignment is its filesystem's to say (statx), not guessed. */
TEST_F(xfs4k, direct_io_follows_the_filesystems_alignment)
{
	char file[PATH_MAX], name[PATH_MAX + 16];
	const char *argv[] = { blkqual_path(), "run", "--name=x", name, "--rw=write",
			       "--size=1m", "--direct=1", "--bs=1k", NULL };
	uint64_t before, after;
	int fd;

	PREP_READY(&self->p);
	snprintf(file, sizeof(file), "%s/f", self->fs.mnt);
	snprintf(name, sizeof(name), "--filename=%s", file);
	fd = open(file, O_CREAT | O_WRONLY, 0644);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ftruncate(fd, 1 << 20));
	close(fd);
	ASSERT_EQ(0, checksum_path(file, &before));
	expect_refused(_metadata, argv,
		       "multiples of the filesystem's direct I/O alignment 4096", file);
	ASSERT_EQ(0, checksum_path(file, &after));
	EXPECT_EQ(before, after);
}

TEST_HARNESS_MAIN
