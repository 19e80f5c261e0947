#!/usr/bin/env python3
"""The SV-COMP violation witnesses of `ravel check --witness` and `ravel race
--witness`: well-formed GraphML 1.0 with the keys witness validators read,
one path from the entry node to the violation node, every edge with a
startline inside the program and a threadId, threads created by
createThread before they act, the program's SHA-256, the specification.

usage: witness_check.py RAVEL EXAMPLES_DIR CASES_DIR WORK_DIR"""
import hashlib
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

NS = "{http://graphml.graphdrawing.org/xmlns}"


def check(ravel, args, prog, spec, work, name):
    out = os.path.join(work, name + ".graphml")
    if os.path.exists(out):
        os.remove(out)
    p = subprocess.run([ravel] + args + ["--witness", out, prog], capture_output=True, text=True)
    assert p.returncode == 1, "%s: exit %d: %s" % (name, p.returncode, p.stderr)
    root = ET.parse(out).getroot()
    assert root.tag == NS + "graphml", root.tag
    keys = {k.get("id"): k.get("for") for k in root.findall(NS + "key")}
    for k in ["witness-type", "sourcecodelang", "producer", "specification", "programfile",
              "programhash", "architecture", "creationtime", "startline", "threadId",
              "createThread", "entry", "violation"]:
        assert k in keys, "%s: key %s missing" % (name, k)
    g = root.find(NS + "graph")
    gdata = {d.get("key"): d.text for d in g.findall(NS + "data")}
    assert gdata["witness-type"] == "violation_witness"
    assert gdata["specification"] == spec, gdata["specification"]
    sha = hashlib.sha256(open(prog, "rb").read()).hexdigest()
    assert gdata["programhash"] == sha, "%s: hash %s != %s" % (name, gdata["programhash"], sha)
    nodes = {n.get("id"): {d.get("key"): d.text for d in n.findall(NS + "data")}
             for n in g.findall(NS + "node")}
    entries = [n for n, d in nodes.items() if d.get("entry") == "true"]
    violations = [n for n, d in nodes.items() if d.get("violation") == "true"]
    assert len(entries) == 1 and len(violations) == 1, (entries, violations)
    succ = {}
    edges = g.findall(NS + "edge")
    for e in edges:
        assert e.get("source") not in succ, "%s: not a path" % name
        succ[e.get("source")] = e
    node, seen, created, nlines = entries[0], set(), {"0"}, len(open(prog).readlines())
    while node in succ:
        assert node not in seen, "%s: a cycle" % name
        seen.add(node)
        e = succ[node]
        d = {x.get("key"): x.text for x in e.findall(NS + "data")}
        if "startline" in d:
            assert 1 <= int(d["startline"]) <= nlines, d
            assert d["threadId"] in created, "%s: thread %s acts before it is created" % (
                name, d["threadId"])
        if "createThread" in d:
            created.add(d["createThread"])
        node = e.get("target")
    assert node == violations[0], "%s: the path does not end at the violation" % name
    assert len(created) > 1, "%s: no thread creation recorded" % name
    print("%s: %d edges, %d threads, ok" % (name, len(edges), len(created)))


def check_correctness(ravel, args, prog, work, name):
    """A `true` answer's correctness witness: GraphML 1.0 with one entry node
    and no invariants; the program's hash; the answer exit 0."""
    out = os.path.join(work, name + ".graphml")
    if os.path.exists(out):
        os.remove(out)
    p = subprocess.run([ravel] + args + ["--witness", out, prog], capture_output=True, text=True)
    assert p.returncode == 0 and "true" in p.stdout, "%s: exit %d: %s %s" % (
        name, p.returncode, p.stdout, p.stderr)
    root = ET.parse(out).getroot()
    g = root.find(NS + "graph")
    gdata = {d.get("key"): d.text for d in g.findall(NS + "data")}
    assert gdata["witness-type"] == "correctness_witness", gdata
    sha = hashlib.sha256(open(prog, "rb").read()).hexdigest()
    assert gdata["programhash"] == sha, "%s: hash %s != %s" % (name, gdata["programhash"], sha)
    nodes = {n.get("id"): {d.get("key"): d.text for d in n.findall(NS + "data")}
             for n in g.findall(NS + "node")}
    entries = [n for n, d in nodes.items() if d.get("entry") == "true"]
    assert len(entries) == 1, entries
    assert not any("invariant" in d for d in nodes.values()), "%s: invariants" % name
    print("%s: correctness witness, %d nodes, ok" % (name, len(nodes)))


def main():
    ravel, examples, cases, work = sys.argv[1:5]
    os.makedirs(work, exist_ok=True)
    check(ravel, ["check", "-q"], os.path.join(examples, "c", "counter_race.c"),
          "CHECK( init(main()), LTL(G ! call(reach_error())) )", work, "check")
    check(ravel, ["check", "-q", "--engine", "kiss", "--explore", "0"],
          os.path.join(examples, "c", "counter_race.c"),
          "CHECK( init(main()), LTL(G ! call(reach_error())) )", work, "check_bmc")
    check(ravel, ["check", "-q", "--engine", "po"], os.path.join(examples, "c", "counter_race.c"),
          "CHECK( init(main()), LTL(G ! call(reach_error())) )", work, "check_po")
    check(ravel, ["race", "-q", "--pending", "1", "--unwind", "2", "--max-races", "1"],
          os.path.join(cases, "race_counter", "prog.c"),
          "CHECK( init(main()), LTL(G ! data-race) )", work, "race")
    check(ravel, ["race", "-q", "--engine", "kiss", "--pending", "1", "--unwind", "2",
                  "--max-races", "1"],
          os.path.join(cases, "race_counter", "prog.c"),
          "CHECK( init(main()), LTL(G ! data-race) )", work, "race_kiss")
    check(ravel, ["race", "-q", "--engine", "po", "--max-races", "1"],
          os.path.join(cases, "race_counter", "prog.c"),
          "CHECK( init(main()), LTL(G ! data-race) )", work, "race_po")
    check_correctness(ravel, ["check", "-q", "--engine", "po"],
                      os.path.join(cases, "check_po_locked_true", "prog.c"), work, "check_po_true")
    check_correctness(ravel, ["check", "-q", "--engine", "tm"],
                      os.path.join(cases, "check_tm_nested_true", "prog.c"), work, "check_tm_true")
    check_correctness(ravel, ["race", "-q", "--engine", "po"],
                      os.path.join(cases, "race_locked", "prog.c"), work, "race_po_true")
    return 0


if __name__ == "__main__":
    sys.exit(main())
