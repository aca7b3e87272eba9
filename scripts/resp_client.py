"""A small blocking RESP2 client for the test and benchmark scripts that drive `vicinity serve`
(scripts/cluster_convergence.py, scripts/bench_cluster.py): commands as arrays of bulk strings,
pipelined with `send_many`; `read` returns an error reply as a `ReplyError` (so a pipeline's
replies can be read in order), `call` raises it.
"""

import socket


class ReplyError(Exception):
    pass


class Client:
    """A blocking RESP2 client."""

    def __init__(self, port, timeout=30):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.file = self.sock.makefile("rb")

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass

    @staticmethod
    def encode(args):
        parts = [b"*%d\r\n" % len(args)]
        for arg in args:
            data = arg if isinstance(arg, bytes) else str(arg).encode()
            parts.append(b"$%d\r\n%s\r\n" % (len(data), data))
        return b"".join(parts)

    def send_many(self, commands):
        self.sock.sendall(b"".join(self.encode(c) for c in commands))

    def read(self):
        line = self.file.readline()
        if not line:
            raise ConnectionError("connection closed")
        kind, rest = line[:1], line[1:-2]
        if kind == b"+":
            return rest.decode()
        if kind == b"-":
            return ReplyError(rest.decode())
        if kind == b":":
            return int(rest)
        if kind == b"$":
            length = int(rest)
            if length < 0:
                return None
            return self.file.read(length + 2)[:-2].decode()
        if kind == b"*":
            count = int(rest)
            return None if count < 0 else [self.read() for _ in range(count)]
        raise ConnectionError(f"unexpected reply {line!r}")

    def call(self, *args):
        self.send_many([args])
        reply = self.read()
        if isinstance(reply, ReplyError):
            raise reply
        return reply


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]
