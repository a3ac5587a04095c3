#!/usr/bin/env python3
"""Writes the issue-28 hostile cases into a folder (default /tmp/issue28): the measured corpus of
docs/bench/issue28/before-after.md. Nothing here is committed as a large file; run
`python3 make_cases.py DIR` and then `measure.sh DIR BINARY`."""
import os, struct, sys, zlib

out = sys.argv[1] if len(sys.argv) > 1 else "/tmp/issue28"
os.makedirs(out, exist_ok=True)


def write(name, data):
    with open(os.path.join(out, name), "wb") as f:
        f.write(data)


class Bits:  # deflate's bit order: least significant bit first
    def __init__(self):
        self.buf, self.acc, self.n = bytearray(), 0, 0

    def put(self, value, count):
        self.acc |= value << self.n
        self.n += count
        while self.n >= 8:
            self.buf.append(self.acc & 255)
            self.acc >>= 8
            self.n -= 8

    def huff(self, code, count):  # Huffman codes go most significant bit first
        self.put(int(format(code, "0%db" % count)[::-1], 2), count)

    def done(self):
        if self.n:
            self.buf.append(self.acc & 255)
        return bytes(self.buf)


def deflate_bomb(nbytes):
    """A zlib stream of one fixed-Huffman block: a zero, then copies of 258 (distance 1)."""
    b = Bits()
    b.put(1, 1), b.put(1, 2)  # final block, fixed Huffman
    b.huff(0x30, 8)  # literal 0
    # Every (258, distance 1) pair is the same 13 bits: emit them a period (8 pairs) at a time.
    pair = Bits()
    for _ in range(8):
        pair.huff(0b11000101, 8), pair.huff(0, 5)
    period = pair.done()  # 13 bytes
    copies = (nbytes - 1) // 258
    head = copies % 8
    for _ in range(head):
        b.huff(0b11000101, 8), b.huff(0, 5)
    # Align: the period is only byte-periodic when the writer is byte aligned, so add the rest
    # pair by pair until it is (at most 7 more pairs), then append whole periods.
    rest = copies - head
    while b.n != 0 and rest > 0:
        b.huff(0b11000101, 8), b.huff(0, 5)
        rest -= 1
    body = bytearray(b.done() if b.n == 0 else b"")
    assert b.n == 0 or rest == 0
    tail = Bits()
    body += period * (rest // 8)
    for _ in range(rest % 8):
        tail.huff(0b11000101, 8), tail.huff(0, 5)
    tail.huff(0, 7)  # end of block
    total = 1 + copies * 258  # Adler-32 of that many zero bytes
    return b"\x78\x01" + bytes(body) + tail.done() + struct.pack(">I", (total % 65521) << 16 | 1)


def png(w, h, colour, depth, idat, cut=0):
    def chunk(t, d):
        return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d))
    data = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, depth, colour, 0, 0, 0))
    data += chunk(b"IDAT", idat) + chunk(b"IEND", b"")
    return data[: len(data) - cut]


def scan_bomb_jpeg(w, h, scans):
    """Progressive greyscale JPEG: one DC scan of zero differences, then `scans` AC scans that
    are nothing but end-of-band runs of 16384 blocks (EOB14 with zero extra bits: 15 zero bits,
    so the entropy data is zero bytes). Needs a block count that is a multiple of 16384."""
    seg = lambda m, d: b"\xff" + bytes([m]) + struct.pack(">H", len(d) + 2) + d
    j = b"\xff\xd8" + seg(0xDB, b"\x00" + b"\x01" * 64)
    j += seg(0xC2, struct.pack(">BHHB", 8, h, w, 1) + b"\x01\x11\x00")
    j += seg(0xC4, b"\x00" + bytes([1] + [0] * 15) + b"\x00")  # DC: one code "0", category 0
    j += seg(0xC4, b"\x10" + bytes([1] + [0] * 15) + b"\xe0")  # AC: one code "0", EOB14
    blocks = ((w + 7) // 8) * ((h + 7) // 8)
    assert blocks % (16384 * 8) == 0
    j += seg(0xDA, b"\x01\x01\x00\x00\x00\x00") + bytes(blocks // 8)
    scan = seg(0xDA, b"\x01\x01\x00\x01\x3f\x00") + bytes(blocks // 16384 * 15 // 8)
    return j + scan * scans + b"\xff\xd9"


def packbits(row):
    out, i = bytearray(), 0
    while i < len(row):
        j = i
        while j + 1 < len(row) and row[j + 1] == row[i] and j - i < 127:
            j += 1
        if j > i:  # a run of j - i + 1 equal bytes
            out += bytes([257 - (j - i + 1), row[i]])
            i = j + 1
            continue
        j = i + 1
        while j < len(row) and j - i < 128 and not (j + 1 < len(row) and row[j] == row[j + 1]):
            j += 1
        out += bytes([j - i - 1]) + row[i:j]
        i = j
    return bytes(out)


def psd16(w, h, rle):
    """An RGB 16-bit PSD of a smooth gradient with flat areas (so PackBits has runs)."""
    chans = []
    for c in range(3):
        rows = []
        for y in range(h):
            vals = [min(65535, ((x * 977 + y * 131 * (c + 1)) % 70000)) if x % 5 else 0x4242
                    for x in range(w)]
            rows.append(b"".join(struct.pack(">H", v) for v in vals))
        chans.append(rows)
    d = b"8BPS" + struct.pack(">H", 1) + b"\0" * 6 + struct.pack(">HIIHH", 3, h, w, 16, 3)
    d += struct.pack(">III", 0, 0, 0)
    if not rle:
        return d + struct.pack(">H", 0) + b"".join(b"".join(r) for r in chans)
    packed = [[packbits(r) for r in rows] for rows in chans]
    d += struct.pack(">H", 1)
    d += b"".join(struct.pack(">H", len(p)) for rows in packed for p in rows)
    return d + b"".join(b"".join(rows) for rows in packed)


def hdr(w, h, header_extra=b"", old_rle=False):
    d = b"#?RADIANCE\n" + header_extra + b"FORMAT=32-bit_rle_rgbe\n\n" + b"-Y %d +X %d\n" % (h, w)
    for y in range(h):
        if old_rle:  # one pixel, then Radiance's old run: (1, 1, 1, count) repeats it
            d += bytes([100 + y, 80, 60, 128]) + bytes([1, 1, 1, w - 1])
        else:
            d += bytes([100 + y, 80, 60, 128]) * w
    return d


def bmp_negative_width():
    d = bytearray(b"BM" + struct.pack("<IHHI", 54 + 16, 0, 0, 54))
    d += struct.pack("<IiiHHIIiiII", 40, -2, 2, 1, 24, 0, 16, 0, 0, 0, 0) + bytes(16)
    return bytes(d)


def gif_lzw13():
    d = b"GIF87a" + struct.pack("<HH", 4, 4) + b"\x80\0\0" + b"\0\0\0\xff\xff\xff"
    return d + b"," + struct.pack("<HHHHB", 0, 0, 4, 4, 0) + b"\x0d\x02\x00\x00\x00;"


if __name__ == "__main__":
    grey_rows = b"".join(b"\0" + bytes(range(64)) for _ in range(64))
    write("png_bomb_3gib.png", png(64, 64, 0, 8, deflate_bomb(3 << 30)))
    write("png_bomb_1gib.png", png(64, 64, 0, 8, deflate_bomb(1 << 30)))
    write("png_valid_64.png", png(64, 64, 0, 8, zlib.compress(grey_rows)))
    write("png_missing_last_byte.png", png(64, 64, 0, 8, zlib.compress(grey_rows), cut=1))
    write("jpeg_scan_bomb.jpg", scan_bomb_jpeg(16384, 8192, 60000))
    write("jpeg_499_scans.jpg", scan_bomb_jpeg(16384, 8192, 499))  # the most the cap admits
    write("psd16_rle.psd", psd16(451, 300, True))
    write("psd16_raw.psd", psd16(451, 300, False))
    write("hdr_long_header_line.hdr", hdr(16, 4, b"# " + b"x" * 5000 + b"\n"))
    write("hdr_old_rle.hdr", hdr(16, 4, old_rle=True))
    write("bmp_negative_width.bmp", bmp_negative_width())
    write("gif_lzw_code_size_13.gif", gif_lzw13())
    write("pnm_p1.pbm", b"P1\n2 2\n0 1\n1 0\n")
    write("pnm_p2.pgm", b"P2\n2 2\n255\n0 10\n20 30\n")
    write("pnm_p3.ppm", b"P3\n1 1\n255\n1 2 3\n")
    write("pnm_p4.pbm", b"P4\n8 1\n\x55")
    write("pnm_p7.pam", b"P7\nWIDTH 1\nHEIGHT 1\nDEPTH 3\nMAXVAL 255\nTUPLTYPE RGB\nENDHDR\n\1\2\3")
    write("name_\x1b[31mred\x1b[0m_\nnewline.png", png(64, 64, 0, 8, zlib.compress(grey_rows), cut=1))
