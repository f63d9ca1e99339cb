#!/usr/bin/env python3
"""Writes the AMD code objects embedded in a model library to files, for llvm-readobj and
llvm-objdump: every 64-bit little-endian ELF inside the library (after its own header) whose
machine is EM_AMDGPU, sized by its section header table (LLD writes it last).

    extract_code_objects.py model.so OUTDIR   ->  OUTDIR/<chip>.hsaco, one line per object
"""
import os
import struct
import sys

EM_AMDGPU = 224
# EF_AMDGPU_MACH values (llvm/BinaryFormat/ELF.h) of the chips tcc compiles for.
CHIPS = {0x030: "gfx908", 0x03F: "gfx90a", 0x04C: "gfx942", 0x04F: "gfx950", 0x036: "gfx1030",
         0x041: "gfx1100", 0x046: "gfx1101", 0x047: "gfx1102", 0x048: "gfx1200",
         0x04E: "gfx1201"}


def code_objects(data):
    """(chip, start, end) of each AMD code object inside `data`, in order."""
    at = data.find(b"\x7fELF", 1)
    while at != -1:
        header = data[at:at + 64]
        if len(header) == 64 and header[4] == 2 and header[5] == 1:
            machine, = struct.unpack_from("<H", header, 18)
            flags, = struct.unpack_from("<I", header, 48)
            shoff, = struct.unpack_from("<Q", header, 40)
            shentsize, shnum = struct.unpack_from("<HH", header, 58)
            size = shoff + shentsize * shnum
            if machine == EM_AMDGPU and at + size <= len(data):
                yield CHIPS.get(flags & 0xFF, "mach%#x" % (flags & 0xFF)), at, at + size
                at = data.find(b"\x7fELF", at + size)
                continue
        at = data.find(b"\x7fELF", at + 1)


def main():
    library, folder = sys.argv[1], sys.argv[2]
    os.makedirs(folder, exist_ok=True)
    with open(library, "rb") as f:
        data = f.read()
    found = 0
    for chip, start, end in code_objects(data):
        image = data[start:end]
        path = os.path.join(folder, chip + ".hsaco")
        with open(path, "wb") as f:
            f.write(image)
        print("%s %d bytes" % (chip, len(image)))
        found += 1
    if not found:
        sys.exit("no AMD code object in " + library)


if __name__ == "__main__":
    main()
