/* The client of Benchmarks/ssh-agent.sh: times requests of the SSH agent protocol
 * (draft-miller-ssh-agent) against several agents, the same code for each, repetitions
 * interleaved (agent 1, agent 2, agent 1, ...) so that a change of load on the machine falls
 * on all of them alike.
 *
 *   ssh-agent-sign MODE KEYTYPE FLAGS COUNT REPETITIONS SOCKET...
 *
 * MODE: sign     COUNT signatures over one connection kept open
 *       connect  COUNT times: connect, one signature, close (what ssh and git do)
 *       list     COUNT REQUEST_IDENTITIES over one connection (no cryptography)
 * KEYTYPE: the key's type name (ecdsa-sha2-nistp256, ssh-rsa, ssh-ed25519); the first key of
 *          that type the agent lists signs (ignored by list). FLAGS: the sign request's flags (2: rsa-sha2-256).
 * Each signature answer is checked: SSH_AGENT_SIGN_RESPONSE holding a signature of the
 * expected algorithm. Prints, per socket, the median, lowest and highest of the repetitions'
 * mean time per request, in microseconds. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

enum {
    REQUEST_IDENTITIES = 11, IDENTITIES_ANSWER = 12, SIGN_REQUEST = 13, SIGN_RESPONSE = 14,
    WARM_UP = 200, MAXIMUM_SOCKETS = 8, MAXIMUM_REPETITIONS = 64, MESSAGE_LENGTH = 32,
};

static void die(const char *what) { fprintf(stderr, "ssh-agent-sign: %s\n", what); exit(1); }

static uint32_t get32(const unsigned char *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}
static void put32(unsigned char *p, uint32_t v) { p[0] = v >> 24; p[1] = v >> 16; p[2] = v >> 8; p[3] = v; }

static int connect_to(const char *path) {
    struct sockaddr_un address = { .sun_family = AF_UNIX };
    if (strlen(path) >= sizeof address.sun_path) die("socket path too long");
    strcpy(address.sun_path, path);
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    if (fd < 0 || connect(fd, (struct sockaddr *)&address, sizeof address) != 0) die("cannot connect");
    return fd;
}

static void write_all(int fd, const unsigned char *p, size_t n) {
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w <= 0) die("write failed");
        p += w; n -= (size_t)w;
    }
}
static void read_all(int fd, unsigned char *p, size_t n) {
    while (n > 0) {
        ssize_t r = read(fd, p, n);
        if (r <= 0) die("the agent closed the connection");
        p += r; n -= (size_t)r;
    }
}

/* Sends one request (already length-prefixed) and reads the answer's body into answer. */
static uint32_t round_trip(int fd, const unsigned char *request, size_t length, unsigned char *answer, size_t capacity) {
    write_all(fd, request, length);
    unsigned char prefix[4];
    read_all(fd, prefix, 4);
    uint32_t n = get32(prefix);
    if (n == 0 || n > capacity) die("answer of a bad length");
    read_all(fd, answer, n);
    return n;
}

/* A string of the wire format at *p within end: its length and start; NULL when it overruns. */
static const unsigned char *read_string(const unsigned char **p, const unsigned char *end, uint32_t *length) {
    if (end - *p < 4) return NULL;
    *length = get32(*p);
    if ((uint32_t)(end - *p - 4) < *length) return NULL;
    const unsigned char *start = *p + 4;
    *p = start + *length;
    return start;
}

static unsigned char answer[1 << 18];
static const unsigned char list_request[5] = {0, 0, 0, 1, REQUEST_IDENTITIES};

/* The first listed key blob whose type is keytype, copied to blob; its length. */
static uint32_t find_key(const char *socket_path, const char *keytype, unsigned char *blob, size_t capacity) {
    int fd = connect_to(socket_path);
    uint32_t n = round_trip(fd, list_request, sizeof list_request, answer, sizeof answer);
    close(fd);
    if (answer[0] != IDENTITIES_ANSWER || n < 5) die("no identities answer");
    const unsigned char *p = answer + 5, *end = answer + n;
    for (uint32_t i = 0, keys = get32(answer + 1); i < keys; i++) {
        uint32_t blob_length, comment_length, type_length;
        const unsigned char *key = read_string(&p, end, &blob_length);
        if (!key || !read_string(&p, end, &comment_length)) die("identities answer does not parse");
        const unsigned char *q = key;
        const unsigned char *type = read_string(&q, key + blob_length, &type_length);
        if (type && type_length == strlen(keytype) && memcmp(type, keytype, type_length) == 0) {
            if (blob_length > capacity) die("key blob too long");
            memcpy(blob, key, blob_length);
            return blob_length;
        }
    }
    fprintf(stderr, "ssh-agent-sign: %s lists no %s key\n", socket_path, keytype);
    exit(1);
}

static size_t sign_request(unsigned char *out, const unsigned char *blob, uint32_t blob_length, uint32_t flags) {
    unsigned char *p = out + 4;
    *p++ = SIGN_REQUEST;
    put32(p, blob_length); memcpy(p + 4, blob, blob_length); p += 4 + blob_length;
    put32(p, MESSAGE_LENGTH);
    for (int i = 0; i < MESSAGE_LENGTH; i++) p[4 + i] = (unsigned char)(i * 37 + 11);
    p += 4 + MESSAGE_LENGTH;
    put32(p, flags); p += 4;
    put32(out, (uint32_t)(p - out - 4));
    return (size_t)(p - out);
}

static void check_signature(uint32_t n, const char *algorithm) {
    if (answer[0] != SIGN_RESPONSE) die("the agent refused to sign");
    const unsigned char *p = answer + 1, *end = answer + n;
    uint32_t signature_length, name_length;
    const unsigned char *signature = read_string(&p, end, &signature_length);
    const unsigned char *q = signature;
    const unsigned char *name = signature ? read_string(&q, signature + signature_length, &name_length) : NULL;
    if (!name || name_length != strlen(algorithm) || memcmp(name, algorithm, name_length) != 0)
        die("the signature is not of the expected algorithm");
}

static double now_us(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

struct target { const char *path; unsigned char request[4096]; size_t request_length; };

/* count requests of the mode against one agent; the mean time per request in microseconds. */
static double run(const struct target *t, const char *mode, const char *algorithm, int count) {
    int sign = strcmp(mode, "list") != 0, reconnect = strcmp(mode, "connect") == 0;
    const unsigned char *request = sign ? t->request : list_request;
    size_t length = sign ? t->request_length : sizeof list_request;
    double start = now_us();
    int fd = reconnect ? -1 : connect_to(t->path);
    for (int i = 0; i < count; i++) {
        if (reconnect) fd = connect_to(t->path);
        uint32_t n = round_trip(fd, request, length, answer, sizeof answer);
        if (sign) check_signature(n, algorithm);
        else if (answer[0] != IDENTITIES_ANSWER) die("no identities answer");
        if (reconnect) close(fd);
    }
    if (!reconnect) close(fd);
    return (now_us() - start) / count;
}

int main(int argc, char **argv) {
    if (argc < 7) die("usage: ssh-agent-sign sign|connect|list KEYTYPE FLAGS COUNT REPETITIONS SOCKET...");
    const char *mode = argv[1], *keytype = argv[2];
    uint32_t flags = (uint32_t)strtoul(argv[3], NULL, 0);
    int count = atoi(argv[4]), repetitions = atoi(argv[5]), sockets = argc - 6;
    if (strcmp(mode, "sign") && strcmp(mode, "connect") && strcmp(mode, "list")) die("unknown mode");
    if (count <= 0 || repetitions <= 0 || repetitions > MAXIMUM_REPETITIONS || sockets > MAXIMUM_SOCKETS) die("bad counts");
    /* RFC 8332: an RSA key signs as rsa-sha2-256 or -512 when the flags ask; other keys under their own name. */
    const char *algorithm = strcmp(keytype, "ssh-rsa") != 0 ? keytype
        : (flags & 2) ? "rsa-sha2-256" : (flags & 4) ? "rsa-sha2-512" : "ssh-rsa";
    static struct target targets[MAXIMUM_SOCKETS];
    static double means[MAXIMUM_SOCKETS][MAXIMUM_REPETITIONS];
    for (int s = 0; s < sockets; s++) {
        unsigned char blob[2048];
        targets[s].path = argv[6 + s];
        if (strcmp(mode, "list") != 0) {
            uint32_t blob_length = find_key(targets[s].path, keytype, blob, sizeof blob);
            targets[s].request_length = sign_request(targets[s].request, blob, blob_length, flags);
        }
        run(&targets[s], mode, algorithm, WARM_UP);
    }
    for (int r = 0; r < repetitions; r++)
        for (int s = 0; s < sockets; s++) means[s][r] = run(&targets[s], mode, algorithm, count);
    for (int s = 0; s < sockets; s++) {
        qsort(means[s], (size_t)repetitions, sizeof(double), compare);
        double median = repetitions % 2 ? means[s][repetitions / 2]
            : (means[s][repetitions / 2 - 1] + means[s][repetitions / 2]) / 2;
        printf("%.2f %.2f %.2f\n", median, means[s][0], means[s][repetitions - 1]);
    }
    return 0;
}
