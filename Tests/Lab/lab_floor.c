// The floor of movies-bench --network tls: what a client that does nothing but the page's
// requests takes in the lab. libcurl's multi interface driven directly from C (through the
// product's own CCurl loader, Sources/CCurl), one thread, no cache, no quota, nothing drawn.
// It keeps the promises that cost wall time and that movies keeps: one HTTP/2 connection per
// host, the posters host opened beside the search when an earlier run left its name (the state
// folder), posters committed durably (written, fsync, rename, fsync of the folder, in parallel)
// before a page is done, and the next page's search asked before `more`.
//
// It reads the part of movies' command line the bench gives and prints the two lines the bench
// times, so the bench runs it exactly as it runs movies:
//   lab_floor search QUERY --base-url URL --api-key KEY --posters DIR      one page, then exit
//   lab_floor --base-url URL --api-key KEY --posters DIR                    a prompt: QUERY, more, quit
// The CA: CURL_CA_BUNDLE or SSL_CERT_FILE when set, else libcurl's built-in folder alone (as
// movies reads it), else libcurl's defaults. Built by the bench with cc at run time.
#include "ccurl.h"

#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>


typedef struct {
    ccurl_easy *easy;
    char url[1024];
    char *body;
    size_t length;
    int fd; // a poster's temporary file, -1 for an answer kept in memory
    int warm_up; // a HEAD that opens a connection: its answer is not looked at
    int done;
    char temporary[PATH_MAX], final[PATH_MAX];
} Transfer;

typedef struct {
    char ids[10][32], posters[10][512];
    int count, number;
} Page;

static ccurl_multi *multi;
static ccurl_share *share;
static const char *base, *key, *posters, *ca_file;
static char ca_path[PATH_MAX], state_file[PATH_MAX], posters_origin[512];
static int folder = -1, transfers_made;
static pthread_mutex_t commits_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t commits_done = PTHREAD_COND_INITIALIZER;
static int commits_pending;

static void fail(const char *what) {
    fprintf(stderr, "lab_floor: %s\n", what);
    exit(1);
}

static size_t take(char *data, size_t size, size_t count, void *context) {
    Transfer *transfer = context;
    size_t bytes = size * count;
    if (transfer->fd >= 0) {
        for (size_t written = 0; written < bytes;) {
            ssize_t wrote = write(transfer->fd, data + written, bytes - written);
            if (wrote < 0) return 0;
            written += (size_t)wrote;
        }
        return bytes;
    }
    char *body = realloc(transfer->body, transfer->length + bytes + 1);
    if (!body) return 0;
    transfer->body = body;
    memcpy(transfer->body + transfer->length, data, bytes);
    transfer->length += bytes;
    transfer->body[transfer->length] = 0;
    return bytes;
}

static Transfer *start(const char *url, int warm_up) {
    Transfer *transfer = calloc(1, sizeof *transfer);
    if (!transfer) fail("out of memory");
    snprintf(transfer->url, sizeof transfer->url, "%s", url);
    transfer->fd = -1;
    transfer->warm_up = warm_up;
    ccurl_easy *easy = transfer->easy = ccurl_easy_init();
    ccurl_easy_setopt_pointer(easy, CCURLOPT_URL, transfer->url);
    ccurl_easy_setopt_write(easy, take);
    ccurl_easy_setopt_pointer(easy, CCURLOPT_WRITEDATA, transfer);
    ccurl_easy_setopt_long(easy, CCURLOPT_HTTP_VERSION, CCURL_HTTP_VERSION_2TLS);
    ccurl_easy_setopt_long(easy, CCURLOPT_PIPEWAIT, 1);
    ccurl_easy_setopt_long(easy, CCURLOPT_NOSIGNAL, 1);
    ccurl_easy_setopt_pointer(easy, CCURLOPT_SHARE, share);
    if (ca_file) ccurl_easy_setopt_pointer(easy, CCURLOPT_CAINFO, ca_file);
    else if (ca_path[0]) {
        ccurl_easy_setopt_pointer(easy, CCURLOPT_CAINFO, NULL);
        ccurl_easy_setopt_pointer(easy, CCURLOPT_CAPATH, ca_path);
    }
    if (warm_up) ccurl_easy_setopt_long(easy, CCURLOPT_NOBODY, 1);
    return transfer;
}

// The transfers in libcurl's hands, to find a finished easy handle's Transfer.
static Transfer *running[256];
static int running_count;

static Transfer *add(Transfer *transfer) {
    if (running_count == 256) fail("too many transfers");
    running[running_count++] = transfer;
    ccurl_multi_add_handle(multi, transfer->easy);
    transfers_made++;
    return transfer;
}

static void discard(Transfer *transfer) {
    free(transfer->body);
    free(transfer);
}

static void *commit(void *context) {
    Transfer *transfer = context;
    if (fsync(transfer->fd) != 0 || close(transfer->fd) != 0 || rename(transfer->temporary, transfer->final) != 0 || fsync(folder) != 0) {
        fail("a poster could not be committed");
    }
    pthread_mutex_lock(&commits_lock);
    transfer->done = 1;
    commits_pending--;
    pthread_cond_broadcast(&commits_done);
    pthread_mutex_unlock(&commits_lock);
    return NULL;
}

// One turn of the loop: what finished is marked done (a poster once committed, on a thread of
// its own that starts as its last byte comes); a warm-up nobody waits for is let go.
static void turn(void) {
    int still;
    ccurl_multi_perform(multi, &still);
    ccurl_easy *easy;
    int result;
    while (ccurl_multi_next_done(multi, &easy, &result)) {
        Transfer *transfer = NULL;
        for (int i = 0; i < running_count; i++) {
            if (running[i]->easy == easy) {
                transfer = running[i];
                running[i] = running[--running_count];
                break;
            }
        }
        long status = 0;
        ccurl_easy_getinfo_long(easy, CCURLINFO_RESPONSE_CODE, &status);
        ccurl_multi_remove_handle(multi, easy);
        ccurl_easy_cleanup(easy);
        if (!transfer) continue;
        transfer->easy = NULL;
        // An error page taken for an answer or a poster would make the floor look faster than it is.
        if (!transfer->warm_up && (result != 0 || status != 200)) {
            fprintf(stderr, "lab_floor: %s: %s, HTTP %ld\n", transfer->url, ccurl_easy_strerror(result), status);
            exit(1);
        }
        if (transfer->fd >= 0) {
            pthread_mutex_lock(&commits_lock);
            commits_pending++;
            pthread_mutex_unlock(&commits_lock);
            pthread_t thread;
            if (pthread_create(&thread, NULL, commit, transfer) != 0) fail("no thread for a commit");
            pthread_detach(thread);
        } else {
            transfer->done = 1;
        }
    }
}

// Drives the loop until each of `transfers` is done (a poster: committed).
static void wait_for(Transfer **transfers, int count) {
    for (;;) {
        int pending = 0;
        pthread_mutex_lock(&commits_lock);
        for (int i = 0; i < count; i++) pending += !transfers[i]->done;
        int committing = commits_pending;
        pthread_mutex_unlock(&commits_lock);
        if (!pending) return;
        turn();
        int ready;
        if (running_count > 0) {
            ccurl_multi_poll(multi, committing ? 1 : 1000, &ready);
        } else {
            // Only commits left: woken as each one ends.
            pthread_mutex_lock(&commits_lock);
            if (commits_pending > 0) pthread_cond_wait(&commits_done, &commits_lock);
            pthread_mutex_unlock(&commits_lock);
        }
    }
}

static void remember_posters_origin(const char *poster) {
    const char *host = strstr(poster, "://");
    const char *path = host ? strchr(host + 3, '/') : NULL;
    if (!path || posters_origin[0]) return;
    snprintf(posters_origin, sizeof posters_origin, "%.*s/", (int)(path - poster), poster);
    FILE *file = fopen(state_file, "w");
    if (file) {
        fputs(posters_origin, file);
        fclose(file);
    }
}

// A search of `query` (letters and digits, as the bench types them) for page `number`.
static Transfer *start_search(const char *query, int number) {
    char url[1024];
    snprintf(url, sizeof url, "%s?s=%s&page=%d&apikey=%s", base, query, number, key);
    return add(start(url, 0));
}

// The page a finished search found: each result's poster, then its id (OMDb's key order varies,
// the lab's is sorted: Poster before imdbID).
static Page page_of(Transfer *search, int number) {
    wait_for(&search, 1);
    Page page = {.number = number};
    const char *at = search->body ? search->body : "";
    while (page.count < 10 && (at = strstr(at, "\"Poster\":\""))) {
        sscanf(at + 10, "%511[^\"]", page.posters[page.count]);
        const char *id = strstr(at, "\"imdbID\":\"");
        if (!id) break;
        sscanf(id + 10, "%31[^\"]", page.ids[page.count]);
        page.count++;
        at = id;
    }
    discard(search);
    if (page.count == 0) fail("a search found nothing");
    return page;
}

// A page's records and posters, all at once; done when every poster is committed.
static void details(const Page *page) {
    Transfer *transfers[20];
    char url[1024];
    for (int i = 0; i < page->count; i++) {
        snprintf(url, sizeof url, "%s?i=%s&plot=short&apikey=%s", base, page->ids[i], key);
        transfers[2 * i] = add(start(url, 0));
        remember_posters_origin(page->posters[i]);
        Transfer *poster = start(page->posters[i], 0);
        snprintf(poster->temporary, sizeof poster->temporary, "%s/.%s.tmp", posters, page->ids[i]);
        snprintf(poster->final, sizeof poster->final, "%s/%s.jpg", posters, page->ids[i]);
        poster->fd = open(poster->temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        if (poster->fd < 0) fail("a poster file could not be made");
        transfers[2 * i + 1] = add(poster);
    }
    wait_for(transfers, 2 * page->count);
    for (int i = 0; i < 2 * page->count; i++) discard(transfers[i]);
}

static void show(const char *query, const Page *page) {
    printf("Results for \"%s\": page %d\n", query, page->number);
    fflush(stdout);
    details(page);
    printf("Showing page %d (%d requests so far)\n", page->number, transfers_made);
    fflush(stdout);
}

int main(int argc, char **argv) {
    const char *query = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "search") && i + 1 < argc) query = argv[++i];
        else if (!strcmp(argv[i], "--base-url") && i + 1 < argc) base = argv[++i];
        else if (!strcmp(argv[i], "--api-key") && i + 1 < argc) key = argv[++i];
        else if (!strcmp(argv[i], "--posters") && i + 1 < argc) posters = argv[++i];
        else if (!strncmp(argv[i], "--", 2) && i + 1 < argc) i++; // an option movies takes, with its value
    }
    if (!base || !key || !posters) fail("usage: lab_floor [search QUERY] --base-url URL --api-key KEY --posters DIR");
    char reason[512];
    if (ccurl_load(getenv("MOVIES_LIBCURL"), reason, sizeof reason, NULL) != 0) fail(reason);
    ca_file = getenv("CURL_CA_BUNDLE");
    if (!ca_file || !*ca_file) ca_file = getenv("SSL_CERT_FILE");
    if (ca_file && !*ca_file) ca_file = NULL;
    if (!ca_file) {
        ccurl_easy *easy = ccurl_easy_init();
        const char *built_in = NULL;
        if (ccurl_easy_getinfo_string(easy, CCURLINFO_CAPATH, &built_in) == 0 && built_in) snprintf(ca_path, sizeof ca_path, "%s", built_in);
        ccurl_easy_cleanup(easy);
    }
    const char *state = getenv("XDG_STATE_HOME");
    snprintf(state_file, sizeof state_file, "%s/lab-floor-posters-host", state && *state ? state : "/tmp");
    FILE *file = fopen(state_file, "r");
    if (file) {
        if (!fgets(posters_origin, sizeof posters_origin, file)) posters_origin[0] = 0;
        fclose(file);
    }
    folder = open(posters, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (folder < 0) fail("no posters folder");
    multi = ccurl_multi_init();
    share = ccurl_share_init();
    ccurl_multi_setopt_long(multi, CCURLMOPT_PIPELINING, CCURLPIPE_MULTIPLEX);
    ccurl_share_setopt_int(share, CCURLSHOPT_SHARE, CCURL_LOCK_DATA_DNS);
    ccurl_share_setopt_int(share, CCURLSHOPT_SHARE, CCURL_LOCK_DATA_SSL_SESSION);

    if (query) {
        // The search first, then the posters host behind it, when a run before named it.
        Transfer *search = start_search(query, 1);
        if (posters_origin[0]) add(start(posters_origin, 1));
        Page page = page_of(search, 1);
        show(query, &page);
        return 0;
    }
    // The prompt: both hosts opened before the first line is read (the bench types it a second
    // after the start); each page's next search asked as the page is shown, as movies does.
    Transfer *warm_ups[2];
    int warming = 0;
    warm_ups[warming++] = add(start(base, 1));
    if (posters_origin[0]) warm_ups[warming++] = add(start(posters_origin, 1));
    wait_for(warm_ups, warming);
    for (int i = 0; i < warming; i++) discard(warm_ups[i]);
    char line[256], last[256] = "";
    Transfer *next = NULL;
    int next_number = 0;
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\n")] = 0;
        if (!strcmp(line, "quit")) break;
        if (!*line) continue;
        Page page;
        if (!strcmp(line, "more")) {
            if (!next) fail("more before a search");
            page = page_of(next, next_number);
        } else {
            if (next) page_of(next, next_number); // a search given up: its answer is let go
            snprintf(last, sizeof last, "%s", line);
            page = page_of(start_search(last, 1), 1);
        }
        next_number = page.number + 1;
        next = start_search(last, next_number);
        show(last, &page);
    }
    return 0;
}
