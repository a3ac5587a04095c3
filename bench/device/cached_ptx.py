#!/usr/bin/env python3
"""Writes the PTX of clviz's cached OpenCL programs (NVIDIA's binaries are PTX) for ptxas.

On the lent NVIDIA machine the program cache (<XDG_CACHE_HOME>/clviz/programs/*.clbin) holds,
after a header with the build options, the PTX NVIDIA's compiler produced. For each cached
program kept by the filters this writes OUT/STEM.ptx (the PTX) and OUT/STEM.key (the options),
which the run-*.sh scripts then assemble with ptxas and list with cuobjdump.

Usage: cached_ptx.py OUT PROGRAMS_DIR... [--glob PATTERN] [--key-all=S]... [--key-any=S]...
                     [--text-any=S]... [--tag]
  --key-all=S   keep programs whose options hold every S      (e.g. --key-all=-DFULL_TILES)
  --key-any=S   keep programs whose options hold at least one S
  --text-any=S  keep programs whose PTX holds at least one S  (e.g. --text-any='.entry walk(')
  --tag         prefix each name with its cache's tag: /tmp/xdg-TAG/clviz/programs gives TAG-STEM
Copy it beside a run-*.sh script that is run from a carried folder, as gpu-env.sh.
"""
import argparse
import pathlib


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("out")
    p.add_argument("programs", nargs="+")
    p.add_argument("--glob", default="*.clbin")
    p.add_argument("--key-all", action="append", default=[])
    p.add_argument("--key-any", action="append", default=[])
    p.add_argument("--text-any", action="append", default=[])
    p.add_argument("--tag", action="store_true")
    a = p.parse_args()
    out = pathlib.Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    written = 0
    for d in a.programs:
        folder = pathlib.Path(d)
        tag = folder.parts[2].replace("xdg-", "") + "-" if a.tag and len(folder.parts) > 2 else ""
        for f in sorted(folder.glob(a.glob)):
            b = f.read_bytes()
            at = b.find(b"//\n// Generated")
            if at < 0:
                at = b.find(b".version")
            if at < 0:
                continue  # not PTX: another vendor's binary
            key = b[12:at].split(b"\0")[0].decode("latin1", "replace")
            text = b[at:].rstrip(b"\0")
            if not all(s in key for s in a.key_all):
                continue
            if a.key_any and not any(s in key for s in a.key_any):
                continue
            if a.text_any and not any(s.encode() in text for s in a.text_any):
                continue
            (out / f"{tag}{f.stem}.ptx").write_bytes(text)
            (out / f"{tag}{f.stem}.key").write_text(key)
            written += 1
    print(f"cached_ptx: {written} programs' PTX in {out}")


if __name__ == "__main__":
    main()
