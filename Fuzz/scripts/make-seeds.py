#!/usr/bin/env python3
"""Writes the seed corpus in Fuzz/corpus/: well-formed inputs for each target, so fuzzing starts
from the formats' real shapes (attribute and secret blobs, password parameters, backup item
lists, and dictionaries in FuzzQueryParser's byte language). Run from Fuzz/."""
import os, re, struct

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(here)
source = open(os.path.join(root, "Sources/FuzzQueryParser/FuzzQueryParser.swift")).read()

def swift_list(name):
    body = re.search(r"static let %s: \[String\] = \[(.*?)\]\n" % name, source, re.S).group(1)
    return re.findall(r'"((?:[^"\\]|\\.)*)"', body)

KEYS, STRINGS = swift_list("keys"), swift_list("strings")

def write(target, name, data):
    folder = os.path.join(root, "corpus", target)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, name), "wb") as f:
        f.write(bytes(data))

# --- FuzzQueryParser: [class?] [count] then per entry key bytes and value bytes -------------
def k(name): return [3, KEYS.index(name)]
def s(text): return [0, 1, STRINGS.index(text)]
def raw(text): b = text.encode(); return [0, 0, len(b)] + list(b)
def data(b): return [2, len(b)] + list(b)
def boolean(v): return [6, 1 if v else 0]
def small(n): return [4, n & 0xFF]
def dictionary(cls, entries):
    out = [1, STRINGS.index(cls), len(entries)]
    for key, value in entries: out += key + value
    return out

write("FuzzQueryParser", "add-genp", dictionary("genp", [(k("acct"), raw("alice")), (k("svce"), s("fuzz.example")),
    (k("v_Data"), data(b"secret")), (k("pdmn"), s("ak"))]))
write("FuzzQueryParser", "copy-all", dictionary("genp", [(k("acct"), raw("alice")), (k("r_Data"), boolean(True)),
    (k("r_Attributes"), boolean(True)), (k("m_Limit"), s("m_LimitAll"))]))
write("FuzzQueryParser", "inet", dictionary("inet", [(k("srvr"), s("fuzz.example")), (k("ptcl"), s("htps")),
    (k("port"), small(44)), (k("atyp"), s("dflt")), (k("path"), raw("/"))]))
write("FuzzQueryParser", "persistent-ref", dictionary("genp", [(k("v_PersistentRef"), [10, 0, 1] + [9] * 16),
    (k("r_Data"), boolean(True))]))
write("FuzzQueryParser", "access-control", dictionary("genp", [(k("accc"), [11] + [0] * 7 + [1, 0]), (k("acct"), raw("bob"))]))
write("FuzzQueryParser", "tombstones-sync", dictionary("genp", [(k("u_Tomb"), boolean(False)), (k("sync"), s("syna")),
    (k("m_Limit"), small(-1))]))
write("FuzzQueryParser", "nested", dictionary("cert", [(k("m_ItemList"), [12, 2] + s("genp") + data(b"xy")),
    (k("labl"), [13, 1] + k("acct") + s("dk"))]))

# --- FuzzDecoders: selector byte, then the encoded form ---------------------------------------
def attributes(entries):
    out = [1] + list(struct.pack("<H", len(entries)))
    for name in sorted(entries):
        tag, value = entries[name]
        out += [len(name)] + list(name.encode()) + [ord(tag)]
        if tag in "sd":
            b = value.encode() if tag == "s" else value
            out += list(struct.pack("<I", len(b))) + list(b)
        elif tag == "i":
            out += list(struct.pack("<q", value))
        else:
            out += list(struct.pack("<d", value))
    return out

def secret(value):
    out = [0 if value is None else 1] + list(struct.pack("<I", len(value or b""))) + list(value or b"")
    return out + [0] * ((32 - len(out) % 32) % 32)

item = {"acct": ("s", "alice"), "svce": ("s", "fuzz.example"), "agrp": ("s", "swift-keychain.shared"),
        "pdmn": ("s", "ak"), "sync": ("i", 0), "tomb": ("i", 0), "cdat": ("t", 700000000.5),
        "mdat": ("t", 700000001.25), "gena": ("d", b"\x00\x01"), "port": ("i", 443), "sha1": ("d", bytes(20))}
write("FuzzDecoders", "attributes", [0] + attributes(item))
write("FuzzDecoders", "attributes-empty", [0] + attributes({}))
write("FuzzDecoders", "secret", [1] + secret(b"correct horse battery staple"))
write("FuzzDecoders", "secret-none", [1] + secret(None))
write("FuzzDecoders", "sealed-shape", [2, 1] + [0x42] * 60 + [0x17] * 12 + [0x33] * 40 + [0x99] * 16)
write("FuzzDecoders", "seal-roundtrip", [3] + list(b"plaintext to seal and open again"))
write("FuzzDecoders", "password-parameters", [4, 1, 15] + list(struct.pack("<II", 8, 1)) + [5] * 16)

# --- FuzzBackup: the decrypted item list -------------------------------------------------------
def backup(items):
    out = list(struct.pack("<I", len(items)))
    for code, reference, attrs, value in items:
        encoded = attributes(attrs)
        out += list(code.encode()) + reference + list(struct.pack("<I", len(encoded))) + encoded + secret(value)
    return out

inet = {"acct": ("s", "bob"), "srvr": ("s", "fuzz.example"), "ptcl": ("s", "htps"), "port": ("i", 443),
        "pdmn": ("s", "ck"), "agrp": ("s", "swift-keychain.shared"), "mdat": ("t", 700000002.0), "sync": ("i", 1)}
write("FuzzBackup", "one-item", backup([("genp", [1] * 16, item, b"secret one")]))
write("FuzzBackup", "two-items", backup([("genp", [2] * 16, item, b"secret two"), ("inet", [3] * 16, inet, None)]))
write("FuzzBackup", "empty", backup([]))
