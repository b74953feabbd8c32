#!/usr/bin/env python3
"""The TLS + HTTP/2 latency lab: a fake OMDb as a real user meets it, on loopback only.

Two TLS 1.3 hosts speaking HTTP/2 and HTTP/1.1 by ALPN: the API host (as www.omdbapi.com)
and the posters host (as m.media-amazon.com), with certificates from a throwaway CA. Each sits
behind a delay proxy that delivers every chunk R/2 late in each direction and holds the first
bytes of a new connection one more R: a round trip costs R, a new TCP connection one more R,
a TLS 1.3 handshake one more R. The servers themselves answer at once.

    python3 omdb_lab.py [--latency MS] [--dir DIR] [--poster-bytes N] [--ca-bundle system+lab|lab]

prints one JSON line once ready (addresses, the CA file to trust through SSL_CERT_FILE, the key,
the control address), then reads commands on stdin, one a line, each answered by one JSON line:
`stats` (the counters per host), `reset` (zero them). It stops when stdin closes, so a crashed
caller never leaves it running. The same is served over plain HTTP at the control address:
GET /stats, GET /reset.

    python3 omdb_lab.py --python-client --api URL --key KEY [--query bench]

is the Python client doing the same page as `movies search QUERY` (search page 1, then its 10
records and 10 posters at once) with httpx over HTTP/2, trusting $SSL_CERT_FILE; prints one JSON
line (page ms, CPU seconds, protocols).

Needs Python 3.9+, `h2` (and `httpx[http2]` for the client) from PyPI, and the openssl CLI.
"""

import argparse
import asyncio
import json
import os
import re
import resource
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import threading
import time
import unicodedata
import urllib.parse

API_KEY = "fake-test-key-0123"   # the key FakeOMDbServer accepts too
API_ADDRESS = "127.0.0.1"
POSTERS_ADDRESS = "127.0.0.2"    # a second loopback address: a second host for the client
COMMON_WORDS = {"a", "an", "the", "of", "and", "in", "on", "to", "up", "at", "by", "for", "is", "it", "i"}
PAGE_SIZE = 10

# MARK: - Certificates


def make_certificates(folder, ca_bundle):
    """A throwaway CA and one certificate per host, made with the openssl CLI into `folder`.

    Returns the CA file the client should trust: with `system+lab`, the system's bundle followed
    by the lab CA, so a client parses as many certificates as it would against the real hosts.
    """
    os.makedirs(folder, exist_ok=True)

    def run(*arguments):
        subprocess.run(["openssl", *arguments], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)

    ca_key, ca = os.path.join(folder, "ca.key"), os.path.join(folder, "ca.pem")
    run("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "2",
        "-subj", "/CN=movies lab CA (throwaway)", "-keyout", ca_key, "-out", ca,
        "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign")
    extensions = os.path.join(folder, "server.ext")
    with open(extensions, "w") as f:
        f.write("basicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature\n"
                "extendedKeyUsage=serverAuth\n"
                f"subjectAltName=IP:{API_ADDRESS},IP:{POSTERS_ADDRESS},DNS:localhost\n")
    pairs = {}
    for host in ("api", "posters"):
        key, csr, cert = (os.path.join(folder, f"{host}.{ext}") for ext in ("key", "csr", "pem"))
        run("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
            "-subj", f"/CN=movies lab {host}", "-keyout", key, "-out", csr)
        run("x509", "-req", "-in", csr, "-CA", ca, "-CAkey", ca_key, "-CAcreateserial", "-days", "2",
            "-extfile", extensions, "-out", cert)
        pairs[host] = (cert, key)
    trusted = ca
    if ca_bundle == "system+lab":
        system = ssl.get_default_verify_paths().cafile or ""
        for candidate in (system, "/etc/ssl/certs/ca-certificates.crt", "/etc/pki/tls/certs/ca-bundle.crt", "/etc/ssl/cert.pem"):
            if candidate and os.path.isfile(candidate):
                trusted = os.path.join(folder, "ca-bundle.pem")
                with open(trusted, "wb") as out:
                    for part in (candidate, ca):
                        with open(part, "rb") as f:
                            data = f.read()
                        out.write(data if data.endswith(b"\n") else data + b"\n")
                break
    return trusted, ca, pairs


def server_context(cert, key):
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.minimum_version = ssl.TLSVersion.TLSv1_3
    context.set_alpn_protocols(["h2", "http/1.1"])
    context.load_cert_chain(cert, key)
    return context


# MARK: - The catalogue


def words(text):
    folded = unicodedata.normalize("NFKD", text.casefold())
    folded = "".join(c for c in folded if not unicodedata.combining(c))
    return [w for w in re.split(r"[^\w]+", folded) if w and w != "_"]


class Catalogue:
    """The synthetic catalogue of FakeOMDb's `Catalogue.synthetic`: `Bench Title 1…N` (query
    `bench`), plus `Sequel Title 1…M` (query `sequel`) for a second search that shares nothing
    with the first. Answers OMDb's shapes and error envelopes."""

    def __init__(self, titles, sequels, posters_base):
        self.entries = []
        for family, count, first_id in (("Bench Title", titles, 100_000), ("Sequel Title", sequels, 200_000)):
            for n in range(1, count + 1):
                imdb_id = "tt%07d" % (first_id + n)
                self.entries.append({
                    "Title": f"{family} {n}", "Year": str(1950 + n % 70), "imdbID": imdb_id, "Type": "movie",
                    "Plot": f"Plot of {family.lower()} {n}, long enough to wrap once on an eighty-column terminal, as real plots do.",
                    "Poster": f"{posters_base}posters/{imdb_id}.jpg", "Director": "Someone", "Actors": "Some One, Some Two",
                })
        self.words = [words(e["Title"]) for e in self.entries]
        self.by_id = {e["imdbID"]: e for e in self.entries}

    @staticmethod
    def error(message, status=200):
        return status, {"Response": "False", "Error": message}

    def answer(self, query, valid_key):
        def value(name):
            found = [v for k, v in query if k.lower() == name]
            return found[-1] if found else None

        key = value("apikey")
        if not key:
            return self.error("No API key provided.", 401)
        if key != valid_key:
            return self.error("Invalid API key!", 401)
        if value("i") is not None:
            if value("season") is not None:
                return self.error("Series or season not found!")
            return self.lookup(value("i"), value("plot"))
        if value("s") is not None:
            return self.search(value("s"), value("type"), value("y"), value("page"))
        if value("t") is not None:
            wanted = words(value("t"))
            for entry, entry_words in zip(self.entries, self.words):
                if entry_words == wanted and self.matches(entry, value("type"), value("y")):
                    return self.lookup(entry["imdbID"], value("plot"))
            return self.error("Movie not found!")
        return self.error("Something went wrong.")

    def matches(self, entry, kind, year):
        if kind and entry["Type"] != kind.lower():
            return False
        if year:
            return entry["Year"] == year
        return True

    def search(self, text, kind, year, page):
        wanted = words(text)
        if not wanted:
            return self.error("Something went wrong.")
        if len("".join(wanted)) < 3 or all(w in COMMON_WORDS for w in wanted):
            return self.error("Too many results.")
        try:
            number = int(page) if page is not None else 1
        except ValueError:
            number = 0
        if number < 1:
            return self.error("Something went wrong.")
        hits = [e for e, ws in zip(self.entries, self.words) if all(w in ws for w in wanted) and self.matches(e, kind, year)]
        first = (number - 1) * PAGE_SIZE
        if first >= len(hits):
            return self.error("Movie not found!")
        rows = [{k: e[k] for k in ("Title", "Year", "imdbID", "Type", "Poster")} for e in hits[first:first + PAGE_SIZE]]
        return 200, {"Search": rows, "totalResults": str(len(hits)), "Response": "True"}

    def lookup(self, imdb_id, plot):
        if not re.fullmatch(r"tt\d{7,8}", imdb_id or ""):
            return self.error("Incorrect IMDb ID.")
        entry = self.by_id.get(imdb_id)
        if entry is None:
            return self.error("Error getting data.")
        return 200, dict(entry, Response="True")


def padded_jpeg(seed, size):
    """A valid JPEG of exactly `size` bytes (when `size` allows): `seed` with comment (COM)
    segments inserted after its start marker, as FakeOMDb's posters are 30,000 bytes."""
    assert seed[:2] == b"\xff\xd8"
    padding, left = b"", size - len(seed)
    while left >= 4:
        data = min(left - 4, 65533)
        padding += b"\xff\xfe" + (data + 2).to_bytes(2, "big") + b"Z" * data
        left -= data + 4
    return seed[:2] + padding + seed[2:]


def poster_seed(path):
    if path and os.path.isfile(path):
        with open(path, "rb") as f:
            data = f.read()
        if data[:3] == b"\xff\xd8\xff":
            return data
    # FakeOMDbServer.syntheticPoster: a JFIF header and the end marker.
    return bytes([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01,
                  0x00, 0x01, 0x00, 0x00, 0xFF, 0xD9])


# MARK: - Counters


class Counters:
    FIELDS = ("tcp", "tls", "tls_resumed", "requests_h2", "requests_http1", "head", "apikey", "open")

    def __init__(self):
        self.values = {f: 0 for f in self.FIELDS}

    def add(self, field, n=1):
        self.values[field] += n

    def reset(self):
        for f in self.FIELDS:
            if f != "open":
                self.values[f] = 0


# MARK: - The servers


class Lab:
    def __init__(self, args):
        self.args = args
        self.latency = args.latency / 1000
        self.counters = {"api": Counters(), "posters": Counters()}
        self.catalogue = None
        self.poster = b""

    # The application: what each host answers.

    def respond(self, host, method, target, protocol):
        counters = self.counters[host]
        split = urllib.parse.urlsplit(target)
        query = urllib.parse.parse_qsl(split.query, keep_blank_values=True)
        if method == "HEAD":
            counters.add("head")
        else:
            counters.add("requests_h2" if protocol == "h2" else "requests_http1")
        if any(k.lower() == "apikey" for k, _ in query):
            counters.add("apikey")
        answer = self.answer(host, method, split, query)
        # A CDN's cookies and security headers: --extra-headers N adds N lines of 30 bytes to each answer.
        padding = [("x-padding-%d" % i, "%016x" % ((i * 2654435761) % (1 << 64))) for i in range(self.args.extra_headers)]
        return answer[0], answer[1] + padding, answer[2], answer[3]

    def answer(self, host, method, split, query):
        if method == "HEAD" and split.path == "/":
            return 200, [("content-type", "text/plain")], b"", 0
        if host == "api":
            if split.path not in ("", "/"):
                return 404, [("content-type", "text/html")], b"<html>Not Found</html>", None
            status, obj = self.catalogue.answer(query, self.args.key)
            body = json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()
            return status, [("content-type", "application/json; charset=utf-8"),
                            ("cache-control", "public, max-age=86400")], body, None
        match = re.fullmatch(r"/posters/(tt\d{7,8})(\._V1_[^/]*)?\.jpg", split.path)
        if match and match.group(1) in self.catalogue.by_id:
            return 200, [("content-type", "image/jpeg"), ("cache-control", "max-age=31536000")], self.poster, None
        return 404, [("content-type", "text/html")], b"<html>Not Found</html>", None

    # TLS, then HTTP/2 or HTTP/1.1 by ALPN.

    async def serve_tls(self, host, reader, writer):
        counters = self.counters[host]
        ssl_object = writer.get_extra_info("ssl_object")
        counters.add("tls")
        if ssl_object.session_reused:
            counters.add("tls_resumed")
        sock = writer.get_extra_info("socket")
        if sock is not None:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        try:
            if ssl_object.selected_alpn_protocol() == "h2":
                await self.serve_h2(host, reader, writer)
            else:
                await self.serve_http1(host, reader, writer)
        except (ConnectionError, asyncio.IncompleteReadError, ssl.SSLError, OSError):
            pass
        finally:
            writer.close()

    async def serve_http1(self, host, reader, writer, control=False):
        while True:
            try:
                head = await reader.readuntil(b"\r\n\r\n")
            except (asyncio.IncompleteReadError, asyncio.LimitOverrunError):
                return
            lines = head.decode("latin-1").split("\r\n")
            parts = lines[0].split(" ")
            if len(parts) != 3:
                return
            method, target, version = parts
            headers = {}
            for line in lines[1:]:
                if ":" in line:
                    name, value = line.split(":", 1)
                    headers[name.strip().lower()] = value.strip()
            length = int(headers.get("content-length", "0") or 0)
            if length:
                await reader.readexactly(length)
            if control:
                status, fields, body = self.control(target)
            else:
                status, fields, body, announced = self.respond(host, method, target, "http/1.1")
            close = headers.get("connection", "").lower() == "close" or version == "HTTP/1.0" or control
            out = [f"HTTP/1.1 {status} {'OK' if status == 200 else 'Error'}"]
            out += [f"{k}: {v}" for k, v in fields]
            out += [f"content-length: {len(body)}", f"connection: {'close' if close else 'keep-alive'}", "", ""]
            writer.write("\r\n".join(out).encode("latin-1") + (b"" if method == "HEAD" else body))
            await writer.drain()
            if close:
                return

    async def serve_h2(self, host, reader, writer):
        import h2.config
        import h2.connection
        import h2.events
        import h2.exceptions

        connection = h2.connection.H2Connection(config=h2.config.H2Configuration(client_side=False, header_encoding="utf-8"))
        connection.initiate_connection()
        writer.write(connection.data_to_send())
        requests, pending = {}, {}

        def flush():
            for stream_id in list(pending):
                body = pending[stream_id]
                while body:
                    try:
                        window = connection.local_flow_control_window(stream_id)
                    except h2.exceptions.StreamClosedError:
                        body = b""
                        break
                    size = min(window, connection.max_outbound_frame_size, len(body))
                    if size <= 0:
                        break
                    connection.send_data(stream_id, body[:size], end_stream=size == len(body))
                    body = body[size:]
                if body:
                    pending[stream_id] = body
                else:
                    del pending[stream_id]

        while True:
            data = await reader.read(65536)
            if not data:
                return
            try:
                events = connection.receive_data(data)
            except h2.exceptions.ProtocolError:
                writer.write(connection.data_to_send())
                return
            for event in events:
                if isinstance(event, h2.events.RequestReceived):
                    requests[event.stream_id] = dict(event.headers)
                elif isinstance(event, h2.events.StreamEnded):
                    fields = requests.pop(event.stream_id, {})
                    method = fields.get(":method", "GET")
                    status, extra, body, _ = self.respond(host, method, fields.get(":path", "/"), "h2")
                    head = [(":status", str(status))] + extra + [("content-length", str(len(body)))]
                    empty = method == "HEAD" or not body
                    connection.send_headers(event.stream_id, head, end_stream=empty)
                    if not empty:
                        pending[event.stream_id] = memoryview(body)
                elif isinstance(event, h2.events.StreamReset):
                    pending.pop(event.stream_id, None)
                elif isinstance(event, h2.events.ConnectionTerminated):
                    writer.write(connection.data_to_send())
                    return
            flush()
            writer.write(connection.data_to_send())
            await writer.drain()

    # The delay proxy in front of each server.

    async def proxy(self, host, upstream_port, client_reader, client_writer):
        counters = self.counters[host]
        counters.add("tcp")
        counters.add("open")
        try:
            for w in (client_writer,):
                w.get_extra_info("socket").setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            server_reader, server_writer = await asyncio.open_connection("127.0.0.1", upstream_port)
            server_writer.get_extra_info("socket").setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            # The first client flight waits one more R: the SYN, SYN-ACK round trip before it.
            await asyncio.gather(self.pump(client_reader, server_writer, first_extra=self.latency),
                                 self.pump(server_reader, client_writer, first_extra=0.0))
        except (ConnectionError, OSError):
            pass
        finally:
            counters.add("open", -1)
            client_writer.close()

    async def pump(self, reader, writer, first_extra):
        """Copies reader to writer, each chunk delivered R/2 after it was read (in order)."""
        loop = asyncio.get_running_loop()
        queue = asyncio.Queue()

        async def deliver():
            while True:
                due, chunk = await queue.get()
                delay = due - loop.time()
                if delay > 0:
                    await asyncio.sleep(delay)
                if chunk is None:
                    if writer.can_write_eof():
                        writer.write_eof()
                    return
                writer.write(chunk)
                await writer.drain()

        delivery = asyncio.ensure_future(deliver())
        last, extra = 0.0, first_extra
        try:
            while True:
                chunk = await reader.read(65536)
                due = max(loop.time() + self.latency / 2 + extra, last)
                last, extra = due, 0.0
                await queue.put((due, chunk or None))
                if not chunk:
                    break
            await delivery
        except (ConnectionError, OSError):
            delivery.cancel()
            writer.close()

    # Control: stats and reset, on stdin and on a plain HTTP port.

    def stats(self):
        return {host: dict(c.values) for host, c in self.counters.items()}

    def control(self, target):
        path = urllib.parse.urlsplit(target).path
        if path == "/reset":
            for c in self.counters.values():
                c.reset()
            return 200, [("content-type", "application/json")], b'{"reset":true}\n'
        if path == "/stats":
            return 200, [("content-type", "application/json")], (json.dumps({"stats": self.stats()}) + "\n").encode()
        return 404, [("content-type", "text/plain")], b"/stats or /reset\n"

    def command(self, line):
        word = line.strip()
        if word == "stats":
            return {"stats": self.stats()}
        if word == "reset":
            for c in self.counters.values():
                c.reset()
            return {"reset": True}
        return {"error": f"unknown command {word!r}: stats or reset"}

    async def run(self):
        folder = self.args.dir or tempfile.mkdtemp(prefix="omdb-lab-")
        trusted, lab_ca, pairs = make_certificates(folder, self.args.ca_bundle)
        posters_address = POSTERS_ADDRESS
        try:   # 127.0.0.2 answers on Linux; elsewhere the second host is 127.0.0.1 on its own port.
            probe = socket.socket()
            probe.bind((POSTERS_ADDRESS, 0))
            probe.close()
        except OSError:
            posters_address = API_ADDRESS
        proxies = {}
        for host, address in (("api", API_ADDRESS), ("posters", posters_address)):
            context = server_context(*pairs[host])
            tls = await asyncio.start_server(lambda r, w, h=host: self.serve_tls(h, r, w), "127.0.0.1", 0, ssl=context)
            upstream = tls.sockets[0].getsockname()[1]
            proxies[host] = await asyncio.start_server(lambda r, w, h=host, p=upstream: self.proxy(h, p, r, w), address, 0)
        api = "https://%s:%d/" % proxies["api"].sockets[0].getsockname()[:2]
        posters = "https://%s:%d/" % proxies["posters"].sockets[0].getsockname()[:2]
        self.catalogue = Catalogue(self.args.titles, self.args.sequels, posters)
        self.poster = padded_jpeg(poster_seed(self.args.poster_file), self.args.poster_bytes)
        control = await asyncio.start_server(lambda r, w: self.serve_control(r, w), "127.0.0.1", 0)
        ready = {"ready": True, "api": api, "posters": posters, "ca": trusted, "lab_ca": lab_ca, "key": self.args.key,
                 "control": "http://127.0.0.1:%d/" % control.sockets[0].getsockname()[1],
                 "latency_ms": self.args.latency, "queries": ["bench", "sequel"], "folder": folder,
                 "poster_bytes": len(self.poster), "python": sys.version.split()[0], "openssl": ssl.OPENSSL_VERSION}
        print(json.dumps(ready), flush=True)
        loop = asyncio.get_running_loop()
        stop = loop.create_future()

        def read_commands():
            for line in sys.stdin:
                if line.strip():
                    loop.call_soon_threadsafe(lambda l=line: print(json.dumps(self.command(l)), flush=True))
            loop.call_soon_threadsafe(lambda: stop.done() or stop.set_result(None))

        threading.Thread(target=read_commands, daemon=True).start()
        await stop
        if not self.args.dir:
            shutil.rmtree(folder, ignore_errors=True)

    async def serve_control(self, reader, writer):
        try:
            await self.serve_http1(None, reader, writer, control=True)
        except (ConnectionError, OSError):
            pass
        finally:
            writer.close()


# MARK: - The Python client


def python_client(args):
    """The same page as `movies search QUERY`: page 1, then its records and posters at once."""
    started = time.monotonic()
    import httpx   # imported here: the server side needs only h2

    imported = time.monotonic()
    context = ssl.create_default_context(cafile=os.environ.get("SSL_CERT_FILE") or None)
    folder = tempfile.mkdtemp(prefix="omdb-lab-client-")
    protocols = set()

    async def page():
        async with httpx.AsyncClient(http2=True, verify=context, timeout=30) as client:
            async def get(url, params=None):
                response = await client.get(url, params=params)
                protocols.add(response.http_version)
                response.raise_for_status()
                return response

            search = (await get(args.api, {"s": args.query, "page": "1", "apikey": args.key})).json()
            items = search.get("Search", [])

            async def record(item):
                return (await get(args.api, {"i": item["imdbID"], "plot": "short", "apikey": args.key})).json()

            async def poster(item):
                if item.get("Poster", "N/A") == "N/A":
                    return
                body = (await get(item["Poster"])).content
                with open(os.path.join(folder, item["imdbID"] + ".jpg"), "wb") as f:
                    f.write(body)

            await asyncio.gather(*(record(i) for i in items), *(poster(i) for i in items))
            return len(items)

    try:
        rows = asyncio.run(page())
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    done = time.monotonic()
    usage = resource.getrusage(resource.RUSAGE_SELF)
    print(json.dumps({"rows": rows, "page_ms": round((done - imported) * 1000, 1),
                      "import_ms": round((imported - started) * 1000, 1),
                      "cpu_s": round(usage.ru_utime + usage.ru_stime, 3), "protocols": sorted(protocols),
                      "client": "httpx " + httpx.__version__}), flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--latency", type=float, default=100, help="R in milliseconds (100)")
    parser.add_argument("--dir", help="where to write the CA and certificates (default: a temporary folder, removed at the end)")
    parser.add_argument("--ca-bundle", choices=["system+lab", "lab"], default="system+lab",
                        help="what the client trusts: the system bundle plus the lab CA (as many CAs to parse as for "
                             "the real hosts), or the lab CA alone")
    parser.add_argument("--key", default=API_KEY, help="the API key the API host accepts")
    parser.add_argument("--titles", type=int, default=300, help="titles matching 'bench'")
    parser.add_argument("--sequels", type=int, default=100, help="titles matching 'sequel'")
    parser.add_argument("--poster-bytes", type=int, default=30_000, help="size of every poster (30000)")
    parser.add_argument("--extra-headers", type=int, default=0, help="header lines of 30 bytes added to every answer (0)")
    parser.add_argument("--poster-file", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Sources", "OMDbCatalogue", "Catalogue", "posters", "tt1375666.jpg"),
                        help="a JPEG the posters are made from, padded to --poster-bytes (default: one of the offline catalogue's posters)")
    parser.add_argument("--python-client", action="store_true", help="be the Python client instead (see --api)")
    parser.add_argument("--api", help="with --python-client: the API host's address")
    parser.add_argument("--query", default="bench", help="with --python-client: the search")
    args = parser.parse_args()
    # A parent may have blocked signals (Foundation.Process does): take them back.
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_SETMASK, [])
    if args.python_client:
        if not args.api:
            parser.error("--python-client needs --api URL")
        python_client(args)
        return
    try:
        import h2  # noqa: F401
    except ImportError:
        sys.exit("omdb_lab: the Python package h2 is missing: python3 -m pip install h2")
    if shutil.which("openssl") is None:
        sys.exit("omdb_lab: the openssl command is missing")
    try:
        asyncio.run(Lab(args).run())
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
