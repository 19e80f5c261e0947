#!/usr/bin/env python3
"""Generate scaling families of LISA litmus tests for the litmus benchmark.

Families (n threads; every condition is forbidden, "Never", under SC):

  SB     ring: thread i writes x_i=1, then reads x_{i+1};     exists all r0=0
  LB     ring: thread i reads x_i, then writes x_{i+1}=1;     exists all r0=1
  MP     P0 writes data=1 then flag=1; n-1 readers each read flag, then data;
         exists every reader saw flag=1 and data=0
  IRIW   n/2 writers (writer j writes x_j=1), n/2 readers; reader j reads
         x_j, x_{j+1}, ..., x_{j+m-1} (all written locations, rotated by j);
         exists every reader saw its first location 1 and the others 0
         (even n >= 4 only)
  2+2W   ring: thread i writes x_i=2, then x_{i+1}=1;         exists all x_i=2
  WRC    a chain (n >= 3): P0 writes x0=1; P_i (0 < i < n-1) reads x_{i-1},
         then writes x_i=1; P_{n-1} reads x_{n-2}, then x0;
         exists every read of the chain saw 1 and P_{n-1} saw x0=0
         (n = 3 is the classic WRC)
  ISA2   the same chain, but P0 writes x=1, then y0=1, the chain passes y_i
         along and P_{n-1} finally reads x; exists the chain saw 1 and x=0
         (n = 3 is the classic ISA2)

Each family also has a "long" variant (<FAMILY>-long): NLONG threads (default
4) where every thread first does k writes to private locations p<i>_<j>
(k = 2, 4, ..., 64) before the racy accesses. Private writes add events and
instructions but no read forks, so the event structure grows linearly in k.

Under x86-TSO only SB is allowed (Sometimes); the rest stay forbidden.
Under release/acquire (ra) SB, IRIW and 2+2W are allowed; MP, LB, WRC and ISA2
not (hb = (po | rf)+ carries the chain's writes to the last reader).

Output: <outdir>/<FAMILY>/<FAMILY>_n<NN>.litmus and
        <outdir>/<FAMILY>-long/<FAMILY>-long_k<KK>.litmus
plus <outdir>/index.tsv: family, param name, param value, threads, file,
expected sc observation, expected tso observation, expected ra observation.
"""
import argparse
import os
import sys

FAMILIES = ["SB", "LB", "MP", "IRIW", "2+2W", "WRC", "ISA2"]
TSO_EXPECT = {"SB": "Sometimes", "LB": "Never", "MP": "Never", "IRIW": "Never", "2+2W": "Never",
              "WRC": "Never", "ISA2": "Never"}
# Release/acquire (ravel -m ra): only po | rf cycles, co;hb and fr;hb are
# forbidden, so MP and LB stay Never; SB, IRIW and 2+2W become Sometimes.
RA_EXPECT = {"SB": "Sometimes", "LB": "Never", "MP": "Never", "IRIW": "Sometimes", "2+2W": "Sometimes",
             "WRC": "Never", "ISA2": "Never"}
MIN_THREADS = {"IRIW": 4, "WRC": 3, "ISA2": 3}


def private_writes(i, k):
    return ["w[] p%d_%d 1" % (i, j) for j in range(k)]


def family_sb(n, k=0):
    threads, conds = [], []
    for i in range(n):
        threads.append(private_writes(i, k) + ["w[] x%d 1" % i, "r[] r0 x%d" % ((i + 1) % n)])
        conds.append("%d:r0=0" % i)
    return [("x%d" % i) for i in range(n)], threads, conds


def family_lb(n, k=0):
    threads, conds = [], []
    for i in range(n):
        threads.append(private_writes(i, k) + ["r[] r0 x%d" % i, "w[] x%d 1" % ((i + 1) % n)])
        conds.append("%d:r0=1" % i)
    return [("x%d" % i) for i in range(n)], threads, conds


def family_mp(n, k=0):
    threads = [private_writes(0, k) + ["w[] data 1", "w[] flag 1"]]
    conds = []
    for i in range(1, n):
        threads.append(private_writes(i, k) + ["r[] r0 flag", "r[] r1 data"])
        conds += ["%d:r0=1" % i, "%d:r1=0" % i]
    return ["data", "flag"], threads, conds


def family_iriw(n, k=0):
    m = n // 2
    threads, conds = [], []
    for j in range(m):  # writers are threads 0..m-1
        threads.append(private_writes(j, k) + ["w[] x%d 1" % j])
    for j in range(m):  # readers are threads m..2m-1
        t = m + j
        body = private_writes(t, k)
        for q in range(m):
            loc = (j + q) % m
            body.append("r[] r%d x%d" % (q, loc))
            conds.append("%d:r%d=%d" % (t, q, 1 if q == 0 else 0))
        threads.append(body)
    return [("x%d" % j) for j in range(m)], threads, conds


def family_22w(n, k=0):
    threads = []
    for i in range(n):
        threads.append(private_writes(i, k) + ["w[] x%d 2" % i, "w[] x%d 1" % ((i + 1) % n)])
    conds = ["x%d=2" % i for i in range(n)]
    return [("x%d" % i) for i in range(n)], threads, conds


def family_chain(n, k, first, passed, last):
    """P0 does `first`; P_i reads passed[i-1] and writes passed[i]=1;
    P_{n-1} reads passed[n-2], then `last` (expected 0)."""
    threads = [private_writes(0, k) + first]
    conds = []
    for i in range(1, n - 1):
        threads.append(private_writes(i, k) + ["r[] r0 %s" % passed[i - 1], "w[] %s 1" % passed[i]])
        conds.append("%d:r0=1" % i)
    threads.append(private_writes(n - 1, k) + ["r[] r0 %s" % passed[n - 2], "r[] r1 %s" % last])
    conds += ["%d:r0=1" % (n - 1), "%d:r1=0" % (n - 1)]
    return threads, conds


def family_wrc(n, k=0):
    xs = ["x%d" % i for i in range(n - 1)]
    threads, conds = family_chain(n, k, ["w[] x0 1"], xs, "x0")
    return xs, threads, conds


def family_isa2(n, k=0):
    ys = ["y%d" % i for i in range(n - 1)]
    threads, conds = family_chain(n, k, ["w[] x 1", "w[] y0 1"], ys, "x")
    return ["x"] + ys, threads, conds


BUILDERS = {"SB": family_sb, "LB": family_lb, "MP": family_mp, "IRIW": family_iriw, "2+2W": family_22w,
            "WRC": family_wrc, "ISA2": family_isa2}


def render(name, doc, locs, threads, conds, k):
    locs = list(locs)
    for i in range(len(threads)):
        locs += ["p%d_%d" % (i, j) for j in range(k)]
    out = ["LISA %s" % name, '"%s"' % doc]
    out.append("{ " + " ".join("%s = 0;" % l for l in locs) + " }")
    n = len(threads)
    rows = max(len(t) for t in threads)
    cols = [["P%d" % i] + t + [""] * (rows - len(t)) for i, t in enumerate(threads)]
    widths = [max(len(c) for c in col) for col in cols]
    for r in range(rows + 1):
        cells = [cols[i][r].ljust(widths[i]) for i in range(n)]
        out.append(" " + " | ".join(cells) + " ;")
    out.append("exists (" + " /\\ ".join(conds) + ")")
    return "\n".join(out) + "\n"


DOCS = {
    "SB": "store buffering ring of %d threads",
    "LB": "load buffering ring of %d threads",
    "MP": "message passing: one writer, %d threads in all",
    "IRIW": "independent reads of independent writes, %d threads",
    "2+2W": "2+2W ring of %d threads",
    "WRC": "write-to-read causality, a chain of %d threads",
    "ISA2": "ISA2, a chain of %d threads",
}


def safe(fam):
    return fam.replace("+", "p")  # file names without '+' are friendlier to shells


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("outdir")
    ap.add_argument("--nmin", type=int, default=2)
    ap.add_argument("--nmax", type=int, default=32)
    ap.add_argument("--nlong", type=int, default=4, help="threads of the long variants (default 4)")
    ap.add_argument("--kvalues", default="2,4,8,16,32,64", help="private writes per thread, long variants")
    ap.add_argument("--families", default=",".join(FAMILIES))
    a = ap.parse_args(argv)
    fams = [f for f in a.families.split(",") if f]
    for f in fams:
        if f not in BUILDERS:
            ap.error("unknown family %s (known: %s)" % (f, ", ".join(FAMILIES)))
    ks = [int(x) for x in a.kvalues.split(",") if x]
    os.makedirs(a.outdir, exist_ok=True)
    index = []

    def emit(fam_dir, stem, name, doc, built, k, pname, pval, nthreads, fam, label):
        d = os.path.join(a.outdir, fam_dir)
        os.makedirs(d, exist_ok=True)
        path = os.path.join(d, stem + ".litmus")
        locs, threads, conds = built
        with open(path, "w") as fh:
            fh.write(render(name, doc, locs, threads, conds, k))
        index.append((label, pname, str(pval), str(nthreads), os.path.relpath(path, a.outdir), "Never", TSO_EXPECT[fam],
                      RA_EXPECT[fam]))

    for fam in fams:
        for n in range(a.nmin, a.nmax + 1):
            if n < MIN_THREADS.get(fam, 2) or (fam == "IRIW" and n % 2):  # IRIW: two writers
                continue
            name = "%s_n%02d" % (safe(fam), n)
            emit(safe(fam), name, name, DOCS[fam] % n, BUILDERS[fam](n), 0, "n", n, n, fam, fam)
        for k in ks:
            name = "%s-long_k%02d" % (safe(fam), k)
            doc = (DOCS[fam] % a.nlong) + ", %d private writes per thread first" % k
            emit(safe(fam) + "-long", name, name, doc, BUILDERS[fam](a.nlong, k), k, "k", k, a.nlong, fam, fam + "-long")

    with open(os.path.join(a.outdir, "index.tsv"), "w") as fh:
        fh.write("family\tparam\tvalue\tthreads\tfile\texpect_sc\texpect_tso\texpect_ra\n")
        for row in index:
            fh.write("\t".join(row) + "\n")
    print("wrote %d tests to %s" % (len(index), a.outdir), file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1:])
