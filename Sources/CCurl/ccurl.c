// See include/ccurl.h: libcurl resolved at run time, with calls of the right argument types.
#define _GNU_SOURCE // dlinfo's RTLD_DI_SERINFO: the folders the loader searches
#include "ccurl.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>
#if defined(__linux__)
#include <link.h>
#endif

// libcurl's CURLMsg, as laid out since libcurl 7.9.6.
typedef struct {
    int msg;
    ccurl_easy *easy_handle;
    union {
        void *whatever;
        int result;
    } data;
} ccurl_message;
#define CCURLMSG_DONE 1
#define CCURL_GLOBAL_ALL 3

// The start of libcurl's curl_version_info_data, laid out alike in every age (CURLVERSION_FIRST
// on): only ssl_version is read, through the pointer libcurl returns to its own static copy.
typedef struct {
    int age;
    const char *version;
    unsigned int version_num;
    const char *host;
    int features;
    const char *ssl_version;
} ccurl_version_info_data;
#define CCURLVERSION_FIRST 0

static struct {
    int (*global_init)(long);
    ccurl_version_info_data *(*version_info)(int);
    ccurl_easy *(*easy_init)(void);
    void (*easy_cleanup)(ccurl_easy *);
    int (*easy_setopt)(ccurl_easy *, int, ...);
    int (*easy_getinfo)(ccurl_easy *, int, ...);
    int (*easy_pause)(ccurl_easy *, int);
    const char *(*easy_strerror)(int);
    ccurl_multi *(*multi_init)(void);
    int (*multi_cleanup)(ccurl_multi *);
    int (*multi_setopt)(ccurl_multi *, int, ...);
    int (*multi_add_handle)(ccurl_multi *, ccurl_easy *);
    int (*multi_remove_handle)(ccurl_multi *, ccurl_easy *);
    int (*multi_perform)(ccurl_multi *, int *);
    int (*multi_poll)(ccurl_multi *, void *, unsigned int, int, int *);
    int (*multi_socket_action)(ccurl_multi *, int, int, int *);
    ccurl_message *(*multi_info_read)(ccurl_multi *, int *);
    ccurl_share *(*share_init)(void);
    int (*share_setopt)(ccurl_share *, int, ...);
    int (*share_cleanup)(ccurl_share *);
} curl;

// The first ccurl_load loads libcurl, under this lock; later ones read what came of it under it
// too. (pthread_once cannot take the path as an argument.)
static pthread_mutex_t load_lock = PTHREAD_MUTEX_INITIALIZER;
static int load_attempted;
static char load_failure[512] = "libcurl was not loaded";
// errno as the load failed: a limit reached (EMFILE, ENOMEM) rather than no libcurl.
static int load_errno;

static const char *const library_names[] = {
#if defined(__APPLE__)
    "/usr/lib/libcurl.4.dylib", "libcurl.4.dylib", "libcurl.dylib",
#else
    "libcurl.so.4", "libcurl-gnutls.so.4", "libcurl-nss.so.4", "libcurl.so",
#endif
    NULL,
};

#define RESOLVE(field, name)                                                                     \
    do {                                                                                         \
        *(void **)(&curl.field) = dlsym(library, name);                                          \
        if (!curl.field) {                                                                       \
            snprintf(load_failure, sizeof load_failure,                                          \
                     "%s has no %s: libcurl 7.68 or later is needed", found, name);              \
            return;                                                                              \
        }                                                                                        \
    } while (0)

#if defined(__linux__)
// The folders the loader searches for a library `handle` loads, in order (malloc'd; NULL when unknown).
static Dl_serinfo *search_folders(void *handle) {
    Dl_serinfo counts;
    if (!handle || dlinfo(handle, RTLD_DI_SERINFOSIZE, &counts) != 0) return NULL;
    Dl_serinfo *folders = malloc(counts.dls_size);
    if (!folders) return NULL;
    memcpy(folders, &counts, sizeof counts);
    if (dlinfo(handle, RTLD_DI_SERINFO, folders) == 0) return folders;
    free(folders);
    return NULL;
}

static int listed(const Dl_serinfo *folders, const char *folder) {
    for (unsigned i = 0; i < folders->dls_cnt; i++) {
        if (strcmp(folders->dls_serpath[i].dls_name, folder) == 0) return 1;
    }
    return 0;
}

// dlopen(name) from the system's folders only, never from one of this program's RUNPATH:
// SwiftPM links $ORIGIN in (the program's own folder), where anyone who may write there could
// plant a libcurl whose constructor would run as soon as it is loaded. The program's own folders
// are those the loader searches for it but not for libc (LD_LIBRARY_PATH's and the system's).
// When none of them holds `name`, the loader's own search finds it (its cache included); when one
// does, `*planted` is set and libc's folders are tried by path.
static void *open_library(const char *name, int *planted) {
    Dl_serinfo *own = search_folders(dlopen(NULL, RTLD_LAZY));
    Dl_serinfo *system = search_folders(dlopen("libc.so.6", RTLD_LAZY | RTLD_NOLOAD));
    void *library = NULL;
    char path[PATH_MAX];
    *planted = 0;
    for (unsigned i = 0; own && system && i < own->dls_cnt && !*planted; i++) {
        snprintf(path, sizeof path, "%s/%s", own->dls_serpath[i].dls_name, name);
        *planted = !listed(system, own->dls_serpath[i].dls_name) && access(path, F_OK) == 0;
    }
    for (unsigned i = 0; *planted && i < system->dls_cnt && !library; i++) {
        snprintf(path, sizeof path, "%s/%s", system->dls_serpath[i].dls_name, name);
        if (access(path, F_OK) == 0) library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    }
    int known = own && system;
    free(own);
    free(system);
    // Folders that cannot be listed (out of memory): nothing is loaded by name.
    if (!known) return NULL;
    return *planted ? library : dlopen(name, RTLD_NOW | RTLD_LOCAL);
}
#else
static void *open_library(const char *name, int *planted) {
    *planted = 0;
    return dlopen(name, RTLD_NOW | RTLD_LOCAL);
}
#endif

// dlerror()'s text after its "NAME: " (glibc's is "libcurl.so.4: cannot open shared object file: …").
static const char *load_error(const char *name) {
    const char *text = dlerror();
    if (!text) return "unknown error";
    size_t length = strlen(name);
    return strncmp(text, name, length) == 0 && strncmp(text + length, ": ", 2) == 0 ? text + length + 2 : text;
}

static void load(const char *preferred_library) {
    void *library = NULL;
    const char *found = NULL;
    if (preferred_library) {
        library = dlopen(preferred_library, RTLD_NOW | RTLD_LOCAL);
        if (!library) {
            load_errno = errno;
            snprintf(load_failure, sizeof load_failure, "%s could not be loaded (%s)", preferred_library, load_error(preferred_library));
            return;
        }
        found = preferred_library;
    }
    int planted = 0;
    for (int i = 0; library_names[i] && !library && !planted; i++) {
        library = open_library(library_names[i], &planted);
        found = library_names[i];
    }
    if (!library) {
        load_errno = errno;
        if (planted) {
            snprintf(load_failure, sizeof load_failure, "%s beside movies is not loaded, and the system has none", found);
        } else {
            snprintf(load_failure, sizeof load_failure, "%s could not be loaded (%s)", library_names[0], load_error(found));
        }
        return;
    }
    RESOLVE(global_init, "curl_global_init");
    RESOLVE(version_info, "curl_version_info");
    RESOLVE(easy_init, "curl_easy_init");
    RESOLVE(easy_cleanup, "curl_easy_cleanup");
    RESOLVE(easy_setopt, "curl_easy_setopt");
    RESOLVE(easy_getinfo, "curl_easy_getinfo");
    RESOLVE(easy_pause, "curl_easy_pause");
    RESOLVE(easy_strerror, "curl_easy_strerror");
    RESOLVE(multi_init, "curl_multi_init");
    RESOLVE(multi_cleanup, "curl_multi_cleanup");
    RESOLVE(multi_setopt, "curl_multi_setopt");
    RESOLVE(multi_add_handle, "curl_multi_add_handle");
    RESOLVE(multi_remove_handle, "curl_multi_remove_handle");
    RESOLVE(multi_perform, "curl_multi_perform");
    RESOLVE(multi_poll, "curl_multi_poll");
    RESOLVE(multi_socket_action, "curl_multi_socket_action");
    RESOLVE(multi_info_read, "curl_multi_info_read");
    RESOLVE(share_init, "curl_share_init");
    RESOLVE(share_setopt, "curl_share_setopt");
    RESOLVE(share_cleanup, "curl_share_cleanup");
    // Not thread-safe in libcurl: here, under load_lock, once, before any handle exists.
    if (curl.global_init(CCURL_GLOBAL_ALL) != 0) {
        snprintf(load_failure, sizeof load_failure, "%s could not be initialised", found);
        return;
    }
    load_failure[0] = '\0';
}

int ccurl_load(const char *path, char *reason, size_t size, int *error) {
    pthread_mutex_lock(&load_lock);
    if (!load_attempted) {
        load_attempted = 1;
        load(path && *path ? path : NULL);
    }
    int failed = load_failure[0] != '\0';
    if (failed && reason && size) snprintf(reason, size, "%s", load_failure);
    if (error) *error = failed ? load_errno : 0;
    pthread_mutex_unlock(&load_lock);
    return failed;
}

// Not curl_version(): its text names OpenLDAP's version, and asking OpenLDAP initialises it
// (ldap.conf, the host's name through NSS, every SASL plugin loaded) on the way to the first request.
const char *ccurl_ssl_version(void) {
    const char *ssl = curl.version_info(CCURLVERSION_FIRST)->ssl_version;
    return ssl ? ssl : "";
}

ccurl_easy *ccurl_easy_init(void) { return curl.easy_init(); }
void ccurl_easy_cleanup(ccurl_easy *easy) { curl.easy_cleanup(easy); }
int ccurl_easy_setopt_long(ccurl_easy *easy, int option, long value) { return curl.easy_setopt(easy, option, value); }
int ccurl_easy_setopt_pointer(ccurl_easy *easy, int option, const void *value) { return curl.easy_setopt(easy, option, value); }
int ccurl_easy_setopt_write(ccurl_easy *easy, ccurl_data_callback callback) { return curl.easy_setopt(easy, 20011, callback); }
int ccurl_easy_setopt_header(ccurl_easy *easy, ccurl_data_callback callback) { return curl.easy_setopt(easy, 20079, callback); }
int ccurl_easy_setopt_prereq(ccurl_easy *easy, ccurl_prereq_callback callback, void *context) {
    int result = curl.easy_setopt(easy, 20312, callback); /* CURLOPT_PREREQFUNCTION */
    return result != 0 ? result : curl.easy_setopt(easy, 10313, context); /* CURLOPT_PREREQDATA */
}
// libcurl's struct curl_sockaddr, as laid out since libcurl 7.16.1.
struct ccurl_sockaddr {
    int family;
    int socktype;
    int protocol;
    unsigned int addrlen;
    struct sockaddr addr;
};

/* Descriptors a connection leaves free: libdispatch ends the process when it cannot open
   /proc/<tid>/stat to watch its threads, and the day's count needs one to be written. */
#define CCURL_SPARE_DESCRIPTORS 4

static int open_socket(void *error, int purpose, struct ccurl_sockaddr *address) {
    (void)purpose;
#if defined(SOCK_CLOEXEC)
    int fd = socket(address->family, address->socktype | SOCK_CLOEXEC, address->protocol);
#else
    int fd = socket(address->family, address->socktype, address->protocol);
    if (fd >= 0) fcntl(fd, F_SETFD, FD_CLOEXEC);
#endif
    if (fd < 0) {
        *(int *)error = errno;
        return -1; // CURL_SOCKET_BAD
    }
    // The kernel gives the lowest free number: one this near the limit leaves too few free.
    struct rlimit limit;
    if (getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY
        && (rlim_t)fd + CCURL_SPARE_DESCRIPTORS >= limit.rlim_cur) {
        close(fd);
        *(int *)error = EMFILE;
        return -1;
    }
    return fd;
}

int ccurl_easy_setopt_socket_errors(ccurl_easy *easy, int *error) {
    int result = curl.easy_setopt(easy, 20163, open_socket); /* CURLOPT_OPENSOCKETFUNCTION */
    return result != 0 ? result : curl.easy_setopt(easy, 10164, error); /* CURLOPT_OPENSOCKETDATA */
}
int ccurl_easy_getinfo_long(ccurl_easy *easy, int info, long *value) { return curl.easy_getinfo(easy, info, value); }
int ccurl_easy_getinfo_string(ccurl_easy *easy, int info, const char **value) { return curl.easy_getinfo(easy, info, value); }
int ccurl_easy_pause(ccurl_easy *easy, int bitmask) { return curl.easy_pause(easy, bitmask); }
const char *ccurl_easy_strerror(int code) { return curl.easy_strerror(code); }

ccurl_multi *ccurl_multi_init(void) { return curl.multi_init(); }
int ccurl_multi_cleanup(ccurl_multi *multi) { return curl.multi_cleanup(multi); }
int ccurl_multi_setopt_long(ccurl_multi *multi, int option, long value) { return curl.multi_setopt(multi, option, value); }
int ccurl_multi_add_handle(ccurl_multi *multi, ccurl_easy *easy) { return curl.multi_add_handle(multi, easy); }
int ccurl_multi_remove_handle(ccurl_multi *multi, ccurl_easy *easy) { return curl.multi_remove_handle(multi, easy); }
int ccurl_multi_perform(ccurl_multi *multi, int *running) { return curl.multi_perform(multi, running); }
int ccurl_multi_poll(ccurl_multi *multi, int timeout_ms, int *ready) { return curl.multi_poll(multi, NULL, 0, timeout_ms, ready); }
int ccurl_multi_setopt_callbacks(ccurl_multi *multi, ccurl_socket_callback sockets, ccurl_timer_callback timer, void *context) {
    int result = curl.multi_setopt(multi, 20001, sockets); /* CURLMOPT_SOCKETFUNCTION */
    if (result == 0) result = curl.multi_setopt(multi, 10002, context); /* CURLMOPT_SOCKETDATA */
    if (result == 0) result = curl.multi_setopt(multi, 20004, timer); /* CURLMOPT_TIMERFUNCTION */
    return result != 0 ? result : curl.multi_setopt(multi, 10005, context); /* CURLMOPT_TIMERDATA */
}
int ccurl_multi_socket_action(ccurl_multi *multi, int socket, int events, int *running) {
    return curl.multi_socket_action(multi, socket, events, running);
}

int ccurl_multi_next_done(ccurl_multi *multi, ccurl_easy **easy, int *result) {
    int left = 0;
    ccurl_message *message;
    while ((message = curl.multi_info_read(multi, &left))) {
        if (message->msg != CCURLMSG_DONE) continue;
        *easy = message->easy_handle;
        *result = message->data.result;
        return 1;
    }
    return 0;
}

ccurl_share *ccurl_share_init(void) { return curl.share_init(); }
int ccurl_share_setopt_int(ccurl_share *share, int option, int value) { return curl.share_setopt(share, option, value); }
void ccurl_share_cleanup(ccurl_share *share) { curl.share_cleanup(share); }
