// A slow disk for movies-bench, by LD_PRELOAD: write, fsync and fdatasync on a file under
// SLOW_DISK_DIR first sleep SLOW_DISK_MS milliseconds; everything else (sockets, pipes, other
// folders) is untouched. Compiled by the bench at run time; never part of the product.
//   cc -shared -fPIC -o slow_disk.so slow_disk.c -ldl
#define _GNU_SOURCE
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int under_slow_folder(int fd) {
    const char *folder = getenv("SLOW_DISK_DIR");
    if (!folder || !*folder) return 0;
    char link[64], path[PATH_MAX];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t length = readlink(link, path, sizeof path - 1);
    if (length <= 0) return 0;
    path[length] = '\0';
    size_t prefix = strlen(folder);
    return strncmp(path, folder, prefix) == 0 && (path[prefix] == '/' || path[prefix] == '\0');
}

static void delay(int fd) {
    if (!under_slow_folder(fd)) return;
    const char *ms = getenv("SLOW_DISK_MS");
    long milliseconds = ms ? atol(ms) : 100;
    struct timespec wait = {milliseconds / 1000, (milliseconds % 1000) * 1000000L};
    while (nanosleep(&wait, &wait) != 0) {}
}

ssize_t write(int fd, const void *buffer, size_t count) {
    static ssize_t (*real)(int, const void *, size_t);
    if (!real) *(void **)(&real) = dlsym(RTLD_NEXT, "write");
    delay(fd);
    return real(fd, buffer, count);
}

int fsync(int fd) {
    static int (*real)(int);
    if (!real) *(void **)(&real) = dlsym(RTLD_NEXT, "fsync");
    delay(fd);
    return real(fd);
}

int fdatasync(int fd) {
    static int (*real)(int);
    if (!real) *(void **)(&real) = dlsym(RTLD_NEXT, "fdatasync");
    delay(fd);
    return real(fd);
}
