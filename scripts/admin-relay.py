#!/usr/bin/env python3
"""A TCP relay that signs every connection in as Vicinity's admin, for test suites that cannot
send AUTH (Redis's own, in external-server mode): each client connection gets its own connection
to the server, which first sends `AUTH <token>` and swallows the `+OK`; after that, bytes pass
unchanged both ways (protocol errors included). Listens on 127.0.0.1 only.

    admin-relay.py LISTEN_PORT SERVER_PORT TOKEN
"""
import asyncio
import sys


async def pipe(reader, writer):
    try:
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
    except (ConnectionError, asyncio.CancelledError):
        pass
    finally:
        try:
            writer.close()
        except ConnectionError:
            pass


async def serve(listen_port, server_port, token):
    async def relay(client_reader, client_writer):
        try:
            server_reader, server_writer = await asyncio.open_connection("127.0.0.1", server_port)
        except OSError:
            client_writer.close()
            return
        server_writer.write(b"*2\r\n$4\r\nAUTH\r\n$%d\r\n%s\r\n" % (len(token), token))
        await server_writer.drain()
        if await server_reader.readline() != b"+OK\r\n":
            print("admin-relay: AUTH refused", file=sys.stderr)
            client_writer.close()
            server_writer.close()
            return
        await asyncio.gather(pipe(client_reader, server_writer), pipe(server_reader, client_writer))

    server = await asyncio.start_server(relay, "127.0.0.1", listen_port)
    async with server:
        await server.serve_forever()


if __name__ == "__main__":
    asyncio.run(serve(int(sys.argv[1]), int(sys.argv[2]), sys.argv[3].encode()))
