// The few parts of libcurl that the transport uses, declared here and resolved at run time.
//
// libcurl itself is on every machine where the toolchain's Foundation runs (libcurl.so.4;
// /usr/lib/libcurl.4.dylib on macOS), but its headers often are not. So nothing here includes
// <curl/curl.h> and nothing links -lcurl: ccurl_load() finds the library with dlopen and each
// function with dlsym. The values below are libcurl's ABI, fixed since the versions named.
// Every curl_easy_setopt call goes through a wrapper of one argument type: the real function
// is variadic, and calling it through a fixed signature from Swift would be undefined.
#ifndef CCURL_H
#define CCURL_H

#include <stddef.h>
#include <stdint.h>
#ifdef __linux__
// For the engine's sleep (EngineSleep.swift): epoll and eventfd, which Swift's Glibc module leaves out.
#include <sys/epoll.h>
#include <sys/eventfd.h>
#endif

// Handles, opaque to Swift.
typedef struct ccurl_easy ccurl_easy;
typedef struct ccurl_multi ccurl_multi;
typedef struct ccurl_share ccurl_share;

/// A write or header callback: return the count taken, 0 to stop, or CCURL_WRITEFUNC_PAUSE.
typedef size_t (*ccurl_data_callback)(char *data, size_t size, size_t count, void *context);

// Easy options (CURLOPT_*).
#define CCURLOPT_WRITEDATA 10001
#define CCURLOPT_URL 10002
#define CCURLOPT_USERAGENT 10018
#define CCURLOPT_HEADERDATA 10029
#define CCURLOPT_NOBODY 44
#define CCURLOPT_FOLLOWLOCATION 52
#define CCURLOPT_CAINFO 10065
#define CCURLOPT_CAPATH 10097
#define CCURLOPT_HTTP_VERSION 84
#define CCURLOPT_NOSIGNAL 99
#define CCURLOPT_SHARE 10100
#define CCURLOPT_ACCEPT_ENCODING 10102
#define CCURLOPT_PROTOCOLS 181
#define CCURLOPT_TCP_KEEPALIVE 213
#define CCURLOPT_PIPEWAIT 237
#define CCURLOPT_BUFFERSIZE 98
#define CCURLOPT_NOPROXY 10177

#define CCURL_HTTP_VERSION_2TLS 4
#define CCURLPROTO_HTTP 1
#define CCURLPROTO_HTTPS 2
#define CCURL_WRITEFUNC_PAUSE 0x10000001
#define CCURLPAUSE_CONT 0

// Multi options (CURLMOPT_*).
#define CCURLMOPT_PIPELINING 3
#define CCURLMOPT_MAXCONNECTS 6
#define CCURLMOPT_MAX_HOST_CONNECTIONS 7
#define CCURLPIPE_MULTIPLEX 2

// The multi socket interface: what a socket is watched for (CURL_POLL_*), what was seen on it
// (CURL_CSELECT_*), and the socket that stands for libcurl's own timer.
#define CCURL_POLL_IN 1
#define CCURL_POLL_OUT 2
#define CCURL_POLL_REMOVE 4
#define CCURL_CSELECT_IN 1
#define CCURL_CSELECT_OUT 2
#define CCURL_CSELECT_ERR 4
#define CCURL_SOCKET_TIMEOUT (-1)

// Share options.
#define CCURLSHOPT_SHARE 1
#define CCURL_LOCK_DATA_DNS 3
#define CCURL_LOCK_DATA_SSL_SESSION 4

// Transfer information (CURLINFO_*).
#define CCURLINFO_RESPONSE_CODE 0x200002
// libcurl's built-in CA bundle file and folder (7.84 and later).
#define CCURLINFO_CAINFO 0x10003D
#define CCURLINFO_CAPATH 0x10003E

// Result codes (CURLcode) the transport tells apart.
#define CCURLE_OK 0
#define CCURLE_UNSUPPORTED_PROTOCOL 1
#define CCURLE_FAILED_INIT 2
#define CCURLE_URL_MALFORMAT 3
#define CCURLE_COULDNT_RESOLVE_PROXY 5
#define CCURLE_COULDNT_RESOLVE_HOST 6
#define CCURLE_COULDNT_CONNECT 7
#define CCURLE_WEIRD_SERVER_REPLY 8
#define CCURLE_HTTP2 16
#define CCURLE_PARTIAL_FILE 18
#define CCURLE_WRITE_ERROR 23
#define CCURLE_OPERATION_TIMEDOUT 28
#define CCURLE_SSL_CONNECT_ERROR 35
#define CCURLE_GOT_NOTHING 52
#define CCURLE_SEND_ERROR 55
#define CCURLE_RECV_ERROR 56
#define CCURLE_SSL_CERTPROBLEM 58
#define CCURLE_PEER_FAILED_VERIFICATION 60
#define CCURLE_BAD_CONTENT_ENCODING 61
#define CCURLE_SSL_CACERT_BADFILE 77
#define CCURLE_HTTP2_STREAM 92
#define CCURLE_PROXY 97

/// Loads libcurl once per process (later calls return the first outcome): `path` when given
/// (NULL or empty: the system's libcurl, never one from a folder of the program's RUNPATH, such as
/// its own). Returns 0 when every function was found; otherwise writes a one-line reason into
/// `reason`, and into `error` the errno the loading failed with (EMFILE, ENOMEM: a limit reached).
int ccurl_load(const char *path, char *reason, size_t size, int *error);
/// The TLS library libcurl uses, as `curl_version_info` names it ("OpenSSL/3.0.15"; with several
/// built in, those not selected in parentheses; "" for none), after a successful load.
const char *ccurl_ssl_version(void);

ccurl_easy *ccurl_easy_init(void);
void ccurl_easy_cleanup(ccurl_easy *easy);
int ccurl_easy_setopt_long(ccurl_easy *easy, int option, long value);
int ccurl_easy_setopt_pointer(ccurl_easy *easy, int option, const void *value);
int ccurl_easy_setopt_write(ccurl_easy *easy, ccurl_data_callback callback);
int ccurl_easy_setopt_header(ccurl_easy *easy, ccurl_data_callback callback);
/// CURLOPT_PREREQFUNCTION (libcurl 7.80): called once the connection (TCP, and TLS for https) is
/// ready and before the request is written; return 0 to send it, 1 to abort. Sets the callback's
/// context too. Returns libcurl's error (unknown option before 7.80).
typedef int (*ccurl_prereq_callback)(void *context, char *primary_ip, char *local_ip, int primary_port, int local_port);
int ccurl_easy_setopt_prereq(ccurl_easy *easy, ccurl_prereq_callback callback, void *context);
/// Opens the handle's sockets itself (close-on-exec, so a program the tool starts never holds one),
/// writing into `error` the errno of one that could not be opened (EMFILE: `ulimit -n`), which
/// libcurl's own result does not tell ("could not connect"). `error` must outlive the handle.
int ccurl_easy_setopt_socket_errors(ccurl_easy *easy, int *error);
int ccurl_easy_getinfo_long(ccurl_easy *easy, int info, long *value);
int ccurl_easy_getinfo_string(ccurl_easy *easy, int info, const char **value);
int ccurl_easy_pause(ccurl_easy *easy, int bitmask);
const char *ccurl_easy_strerror(int code);

ccurl_multi *ccurl_multi_init(void);
int ccurl_multi_cleanup(ccurl_multi *multi);
int ccurl_multi_setopt_long(ccurl_multi *multi, int option, long value);
int ccurl_multi_add_handle(ccurl_multi *multi, ccurl_easy *easy);
int ccurl_multi_remove_handle(ccurl_multi *multi, ccurl_easy *easy);
// curl_multi_perform and curl_multi_poll are for the bench's C floor (Tests/Lab/lab_floor.c); the
// transport drives libcurl through its multi socket interface (below).
int ccurl_multi_perform(ccurl_multi *multi, int *running);
int ccurl_multi_poll(ccurl_multi *multi, int timeout_ms, int *ready);
/// CURLMOPT_SOCKETFUNCTION: watch `socket` for `what` (CCURL_POLL_IN, _OUT, both), or no longer (CCURL_POLL_REMOVE).
typedef int (*ccurl_socket_callback)(ccurl_easy *easy, int socket, int what, void *context, void *socket_context);
/// CURLMOPT_TIMERFUNCTION: call ccurl_multi_socket_action with CCURL_SOCKET_TIMEOUT in `timeout_ms` (-1: no longer).
typedef int (*ccurl_timer_callback)(ccurl_multi *multi, long timeout_ms, void *context);
/// Sets both callbacks of the multi socket interface, and the context each is given.
int ccurl_multi_setopt_callbacks(ccurl_multi *multi, ccurl_socket_callback sockets, ccurl_timer_callback timer, void *context);
/// What was seen on `socket` (CCURL_CSELECT_*), or libcurl's timer when `socket` is CCURL_SOCKET_TIMEOUT.
int ccurl_multi_socket_action(ccurl_multi *multi, int socket, int events, int *running);
/// The next finished transfer, if any: returns 1 and sets `easy` and `result`, else 0.
int ccurl_multi_next_done(ccurl_multi *multi, ccurl_easy **easy, int *result);

ccurl_share *ccurl_share_init(void);
int ccurl_share_setopt_int(ccurl_share *share, int option, int value);
void ccurl_share_cleanup(ccurl_share *share);

#endif
