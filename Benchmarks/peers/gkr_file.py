"""GNOME Keyring's binary keyring file (`~/.local/share/keyrings/NAME.keyring`), written and read.

Used by secret_service.py to give gnome-keyring-daemon 10,000 items without 10,000 CreateItem
calls (each of which rewrites the whole file: filling 1,000 -> 10,000 through D-Bus would take
about half an hour here). The file is the one the daemon itself writes (gkm-secret-binary.c,
format 0.0: AES-128-CBC, key and IV from iterated SHA-256 of password and salt, MD5 of the
plaintext in front); the daemon loads it when it unlocks the keyring, and rewrites it whole on
the next change, so a store after loading proves it read every item.

All integers are big-endian uint32; a string is its length then its bytes.
"""
import hashlib
import os
import struct
import subprocess

HEADER = b"GnomeKeyring\n\r\0\n"
ITEM_TYPES = {"org.freedesktop.Secret.Generic": 0, "org.gnome.keyring.NetworkPassword": 1,
              "org.gnome.keyring.Note": 2}


def _u32(v):
    return struct.pack(">I", v)


def _str(s):
    if s is None:
        return _u32(0xFFFFFFFF)
    b = s.encode() if isinstance(s, str) else s
    return _u32(len(b)) + b


def _time(t):
    return _u32((t >> 32) & 0xFFFFFFFF) + _u32(t & 0xFFFFFFFF)


def _attributes(attrs, hashed):
    out = [_u32(len(attrs))]
    for name in sorted(attrs):
        value = attrs[name]
        out.append(_str(name) + _u32(0))  # 0: a string attribute
        out.append(_str(hashlib.md5(value.encode()).hexdigest() if hashed else value))
    return b"".join(out)


def _key_iv(password, salt, iterations):
    digest = hashlib.sha256(password.encode() + salt).digest()
    for _ in range(1, iterations):
        digest = hashlib.sha256(digest).digest()
    return digest[:16], digest[16:32]


def _aes_cbc(data, key, iv, decrypt=False):
    try:
        from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
        c = Cipher(algorithms.AES(key), modes.CBC(iv))
        op = c.decryptor() if decrypt else c.encryptor()
        return op.update(data) + op.finalize()
    except ImportError:  # no python3-cryptography: the openssl command does the same
        cmd = ["openssl", "enc", "-aes-128-cbc", "-nopad", "-K", key.hex(), "-iv", iv.hex()]
        if decrypt:
            cmd.append("-d")
        return subprocess.run(cmd, input=data, stdout=subprocess.PIPE, check=True).stdout


def write(path, password, items, label="Login", iterations=1953, now=None):
    """items: (label, attributes dict, secret str) tuples, ids 1..n in order."""
    import time
    now = int(now or time.time())
    salt = os.urandom(8)
    head = [HEADER, bytes([0, 0, 0, 0]), _str(label), _time(now), _time(now), _u32(0), _u32(0),
            _u32(iterations), salt, _u32(0) * 4, _u32(len(items))]
    body = [b"0123456789abcdef"]  # the MD5 goes here
    for i, (item_label, attrs, secret) in enumerate(items, 1):
        head.append(_u32(i) + _u32(ITEM_TYPES.get(attrs.get("xdg:schema"), 0)) + _attributes(attrs, True))
        body.append(_str(item_label) + _str(secret.encode()) + _time(now) + _time(now) + _str(None) + _u32(0) * 4
                    + _attributes(attrs, False) + _u32(0))  # no ACLs
    plain = b"".join(body)
    plain += b"\0" * (-len(plain) % 16)
    plain = hashlib.md5(plain[16:]).digest() + plain[16:]
    key, iv = _key_iv(password, salt, iterations)
    sealed = _aes_cbc(plain, key, iv)
    data = b"".join(head) + _u32(len(sealed)) + sealed
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.rename(tmp, path)
    return len(data)


def read(path, password):
    """The items of a keyring file as (id, label, attributes, secret) tuples (to check write)."""
    data = open(path, "rb").read()
    assert data[:16] == HEADER and data[16:20] == bytes(4), "not a format 0.0 keyring"
    off = 20

    def u32():
        nonlocal off
        v = struct.unpack_from(">I", data if buf is None else buf, off)[0]
        off += 4
        return v

    def string():
        nonlocal off
        n = u32()
        if n == 0xFFFFFFFF:
            return None
        b = (data if buf is None else buf)[off:off + n]
        off += n
        return b

    def attributes():
        out = {}
        for _ in range(u32()):
            name = string().decode()
            kind = u32()
            out[name] = string().decode() if kind == 0 else u32()
        return out

    buf = None
    string(); off += 16  # label, ctime, mtime
    u32(); u32()  # flags, lock timeout
    iterations = u32()
    salt = data[off:off + 8]
    off += 8 + 16
    ids = []
    for _ in range(u32()):
        ids.append(u32())
        u32()
        attributes()
    size = u32()
    key, iv = _key_iv(password, salt, iterations)
    buf = _aes_cbc(data[off:off + size], key, iv, decrypt=True)
    assert hashlib.md5(buf[16:]).digest() == buf[:16], "wrong password or damaged file"
    off = 16
    items = []
    for i in ids:
        label = string().decode()
        secret = string()
        off += 16
        string(); off += 16
        attrs = attributes()
        for _ in range(u32()):  # ACLs
            u32(); string(); string(); string(); u32()
        items.append((i, label, attrs, secret))
    return items
