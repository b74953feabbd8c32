import os, pty, time, select, sys
env = dict(os.environ, HOME='/tmp/b2/home', XDG_CONFIG_HOME='/tmp/b2/home', XDG_STATE_HOME='/tmp/b2/home', XDG_CACHE_HOME='/tmp/b2/home', OMDB_API_KEY='SECRETKEY123', TERM='xterm')
pid, fd = pty.fork()
if pid == 0:
    os.execve('/work/wt/break2/.build/debug/movies', ['movies', '--base-url', 'http://127.0.0.1:9181/', '--timeout', '60'], env)
out = b''
def read(t):
    global out
    end = time.time() + t
    while time.time() < end:
        r, _, _ = select.select([fd], [], [], 0.05)
        if r:
            try: out += os.read(fd, 65536)
            except OSError: return
read(1.5); os.write(fd, b'star\r'); read(1.5)
n = len(out); t0 = time.time(); os.write(fd, b'\x03')
while time.time() - t0 < 5:
    read(0.05)
    if b'>' in out[n:] or b'top' in out[n:]: break
print('after ctrl-c %.3f s' % (time.time() - t0)); 
os.write(fd, b'\x04'); read(1)
try:
    p, st = os.waitpid(pid, os.WNOHANG); print('exit', p, st)
except Exception as e: print(e)
print(repr(out[-600:]))
print('key shown:', b'SECRETKEY' in out)
