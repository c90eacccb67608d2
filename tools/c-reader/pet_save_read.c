/*
 * pet_save_read: an independent reader for espruino-pet save format v1, in portable C99.
 *
 * Written from the field table and acceptance rules of the format contract (see
 * docs/save-format-v1.md), not from the TypeScript codec, so that the test
 * test/codec-conformance-c-reader.test.ts can check that two separately written readers agree on every
 * payload. Nothing here depends on host byte order, struct layout or integer width beyond the
 * <stdint.h> exact-width types: every field is assembled from single bytes.
 *
 * Usage:
 *   pet_save_read [--hex] [--now MS] [--reencode] FILE|-
 *   pet_save_read --batch [--reencode]          (lines "NOW HEX" on stdin, one result line each)
 *
 * Exit status: 0 accepted, 1 rejected payload, 2 bad usage or unreadable input.
 * See tools/c-reader/README.md for the output formats.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* ---- Format constants (field table) ---------------------------------------------------------- */

#define PAYLOAD_LENGTH 84u
#define HEADER_LENGTH 6u   /* magic + version: enough to decide whether we understand it */
#define CRC_COVERED 80u    /* the CRC covers bytes 0..79 */
#define NAME_FIELD 31u     /* name bytes at 49..79 */
#define ABSENCE_CLAMP_MS 604800000u /* seven days */

#define OFF_VERSION 4u
#define OFF_ELAPSED 6u
#define OFF_UPDATE_COUNT 14u
#define OFF_SAVED_AT 22u
#define OFF_ACTIVITY 30u
#define OFF_EXPRESSION 31u
#define OFF_ACTIVITY_SINCE 32u
#define OFF_EXPRESSION_SINCE 40u
#define OFF_NAME_LENGTH 48u
#define OFF_NAME_BYTES 49u
#define OFF_CRC 80u

/* Project enumerations (docs/save-format-v1.md, "Enumerations"); never renumbered. */
static const char *const ACTIVITY_NAMES[] = {"idle", "wandering", "eating", "playing", "sleeping"};
static const char *const EXPRESSION_NAMES[] = {"neutral", "happy", "sleepy", "surprised", "grumpy", "curious"};
#define ACTIVITY_COUNT 5u
#define EXPRESSION_COUNT 6u

#define EXIT_ACCEPTED 0
#define EXIT_REJECTED 1
#define EXIT_USAGE 2

/* ---- Input buffer ------------------------------------------------------------------------------
 * Only the first 84 bytes can matter; beyond that only the length does (it makes the payload
 * "bad-length"). Keeping the first PAYLOAD_LENGTH bytes and counting the rest lets any input size
 * be read without allocating. */

typedef struct {
    unsigned char bytes[PAYLOAD_LENGTH];
    unsigned long length; /* total bytes seen, saturating */
} Input;

static void input_reset(Input *in) {
    memset(in->bytes, 0, sizeof in->bytes);
    in->length = 0;
}

static void input_push(Input *in, unsigned char b) {
    if (in->length < PAYLOAD_LENGTH) in->bytes[in->length] = b;
    if (in->length != (unsigned long)-1) in->length++;
}

/* ---- Little-endian fields, assembled byte by byte ---------------------------------------------- */

static uint32_t read_u32le(const unsigned char *p) {
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

static uint64_t read_u64le(const unsigned char *p) {
    uint64_t v = 0;
    int i;
    for (i = 7; i >= 0; i--) v = (v << 8) | (uint64_t)p[i];
    return v;
}

static void write_u32le(unsigned char *p, uint32_t v) {
    int i;
    for (i = 0; i < 4; i++) p[i] = (unsigned char)((v >> (8 * i)) & 0xffu);
}

static void write_u64le(unsigned char *p, uint64_t v) {
    int i;
    for (i = 0; i < 8; i++) p[i] = (unsigned char)((v >> (8 * i)) & 0xffu);
}

/* ---- CRC-32 (IEEE 802.3), bitwise, reflected polynomial, no table ------------------------------ */

static uint32_t crc32_bitwise(const unsigned char *p, size_t n) {
    uint32_t crc = 0xffffffffu;
    size_t i;
    int k;
    for (i = 0; i < n; i++) {
        crc ^= (uint32_t)p[i];
        for (k = 0; k < 8; k++) crc = (crc & 1u) ? (crc >> 1) ^ 0xedb88320u : (crc >> 1);
    }
    return crc ^ 0xffffffffu;
}

/* ---- Decoding ----------------------------------------------------------------------------------- */

typedef struct {
    uint64_t elapsed; /* stored elapsed plus the absence */
    uint64_t update_count;
    uint64_t saved_at;
    unsigned activity;
    unsigned expression;
    uint64_t activity_since;
    uint64_t expression_since;
    unsigned name_length;
    unsigned char name[NAME_FIELD];
} Decoded;

/* The Core's own state check on an assembled world: each since stamp names a moment the world clock
 * has already reached. */
static int world_is_consistent(const Decoded *w) {
    return w->activity_since <= w->elapsed && w->expression_since <= w->elapsed;
}

/* Applies the acceptance rules in the contract's order. Returns NULL when accepted (filling *out),
 * else the status name of the first rule that fails; *out is written only on acceptance. */
static const char *decode(const Input *in, uint64_t now, Decoded *out) {
    const unsigned char *b = in->bytes;
    uint64_t stored_elapsed, saved_at, absence;
    unsigned version, name_length, i;
    Decoded w; /* the world under construction, private until every rule has passed */

    if (in->length < HEADER_LENGTH) return "too-short";
    if (b[0] != 0x50 || b[1] != 0x45 || b[2] != 0x54 || b[3] != 0x53) return "bad-magic"; /* "PETS" */
    version = (unsigned)b[OFF_VERSION] | ((unsigned)b[OFF_VERSION + 1] << 8);
    if (version != 1u) return "unsupported-version";
    if (in->length != PAYLOAD_LENGTH) return "bad-length";
    if (crc32_bitwise(b, CRC_COVERED) != read_u32le(b + OFF_CRC)) return "bad-checksum";
    if (b[OFF_ACTIVITY] >= ACTIVITY_COUNT) return "unknown-activity";
    if (b[OFF_EXPRESSION] >= EXPRESSION_COUNT) return "unknown-expression";

    name_length = b[OFF_NAME_LENGTH];
    if (name_length < 1u || name_length > NAME_FIELD) return "bad-name";
    for (i = 0; i < NAME_FIELD; i++) {
        unsigned char c = b[OFF_NAME_BYTES + i];
        if (i < name_length ? c == 0 : c != 0) return "bad-name";
    }

    /* Absence: only when both clocks are known and now is later; clamped to seven days. */
    stored_elapsed = read_u64le(b + OFF_ELAPSED);
    saved_at = read_u64le(b + OFF_SAVED_AT);
    absence = 0;
    if (saved_at != 0 && now != 0 && now > saved_at) {
        absence = now - saved_at;
        if (absence > ABSENCE_CLAMP_MS) absence = ABSENCE_CLAMP_MS;
    }
    if (stored_elapsed > UINT64_MAX - absence) return "clock-overflow";

    /* Build the world as the load would hand it over, clock moved on by the absence, and only then
     * run the state check on it: the last rule is about that world, not the stored fields. */
    w.elapsed = stored_elapsed + absence;
    w.update_count = read_u64le(b + OFF_UPDATE_COUNT);
    w.saved_at = saved_at;
    w.activity = b[OFF_ACTIVITY];
    w.expression = b[OFF_EXPRESSION];
    w.activity_since = read_u64le(b + OFF_ACTIVITY_SINCE);
    w.expression_since = read_u64le(b + OFF_EXPRESSION_SINCE);
    w.name_length = name_length;
    memset(w.name, 0, sizeof w.name);
    memcpy(w.name, b + OFF_NAME_BYTES, name_length);
    if (!world_is_consistent(&w)) return "invalid-world";

    *out = w;
    return NULL;
}

/* The 84 bytes for a decoded world, field by field, with a freshly computed CRC. */
static void encode(const Decoded *d, unsigned char out[PAYLOAD_LENGTH]) {
    memset(out, 0, PAYLOAD_LENGTH);
    out[0] = 0x50; out[1] = 0x45; out[2] = 0x54; out[3] = 0x53;
    out[OFF_VERSION] = 1; out[OFF_VERSION + 1] = 0;
    write_u64le(out + OFF_ELAPSED, d->elapsed);
    write_u64le(out + OFF_UPDATE_COUNT, d->update_count);
    write_u64le(out + OFF_SAVED_AT, d->saved_at);
    out[OFF_ACTIVITY] = (unsigned char)d->activity;
    out[OFF_EXPRESSION] = (unsigned char)d->expression;
    write_u64le(out + OFF_ACTIVITY_SINCE, d->activity_since);
    write_u64le(out + OFF_EXPRESSION_SINCE, d->expression_since);
    out[OFF_NAME_LENGTH] = (unsigned char)d->name_length;
    memcpy(out + OFF_NAME_BYTES, d->name, d->name_length);
    write_u32le(out + OFF_CRC, crc32_bitwise(out, CRC_COVERED));
}

/* ---- Output ------------------------------------------------------------------------------------- */

static void put_u64_decimal(uint64_t v) {
    char digits[21];
    int n = 0;
    do {
        digits[n++] = (char)('0' + (int)(v % 10u));
        v /= 10u;
    } while (v != 0);
    while (n > 0) putchar(digits[--n]);
}

static void put_hex(const unsigned char *p, size_t n) {
    static const char HEX[] = "0123456789abcdef";
    size_t i;
    for (i = 0; i < n; i++) {
        putchar(HEX[p[i] >> 4]);
        putchar(HEX[p[i] & 15u]);
    }
}

static void put_u64_field(const char *key, uint64_t v) {
    printf("\"%s\":\"", key);
    put_u64_decimal(v);
    printf("\",");
}

/* `name` is written only for printable ASCII (0x20..0x7e): turning other bytes into text would need
 * the UTF-8 replacement rules, and nameHex already holds the exact bytes. Escaping follows
 * JSON.stringify, so for these names the line matches `pet-save decode --json` byte for byte. */
static int name_is_printable_ascii(const Decoded *d) {
    unsigned i;
    for (i = 0; i < d->name_length; i++) {
        if (d->name[i] < 0x20 || d->name[i] > 0x7e) return 0;
    }
    return 1;
}

static void put_json(const Decoded *d) {
    unsigned i;
    printf("{\"formatVersion\":1,");
    put_u64_field("elapsedMs", d->elapsed);
    put_u64_field("updateCount", d->update_count);
    put_u64_field("savedAtMs", d->saved_at);
    printf("\"activity\":%u,\"activityName\":\"%s\",", d->activity, ACTIVITY_NAMES[d->activity]);
    printf("\"expression\":%u,\"expressionName\":\"%s\",", d->expression, EXPRESSION_NAMES[d->expression]);
    put_u64_field("activitySinceMs", d->activity_since);
    put_u64_field("expressionSinceMs", d->expression_since);
    if (name_is_printable_ascii(d)) {
        printf("\"name\":\"");
        for (i = 0; i < d->name_length; i++) {
            if (d->name[i] == '"' || d->name[i] == '\\') putchar('\\');
            putchar(d->name[i]);
        }
        printf("\",");
    }
    printf("\"nameHex\":\"");
    put_hex(d->name, d->name_length);
    printf("\"}");
}

/* ---- Parsing helpers ---------------------------------------------------------------------------- */

/* A u64 from decimal digits only (no sign, no spaces); 0 on success, -1 when empty, not digits or too big. */
static int parse_u64(const char *s, uint64_t *out) {
    uint64_t v = 0;
    if (*s == '\0') return -1;
    for (; *s != '\0'; s++) {
        unsigned d;
        if (*s < '0' || *s > '9') return -1;
        d = (unsigned)(*s - '0');
        if (v > (UINT64_MAX - d) / 10u) return -1;
        v = v * 10u + d;
    }
    *out = v;
    return 0;
}

static int hex_value(int c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* Hex text: digits in either case; spaces, tabs and line breaks anywhere are ignored, and '#' starts
 * a comment to the end of the line. Returns 0, or -1 on another character or an odd digit count. */
static int read_hex_stream(FILE *f, Input *in) {
    int c, high = -1;
    while ((c = getc(f)) != EOF) {
        int v;
        if (c == '#') {
            while ((c = getc(f)) != EOF && c != '\n') { }
            if (c == EOF) break;
            continue;
        }
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n') continue;
        v = hex_value(c);
        if (v < 0) return -1;
        if (high < 0) {
            high = v;
        } else {
            input_push(in, (unsigned char)((high << 4) | v));
            high = -1;
        }
    }
    return high < 0 ? 0 : -1;
}

static int read_raw_stream(FILE *f, Input *in) {
    int c;
    while ((c = getc(f)) != EOF) input_push(in, (unsigned char)c);
    return ferror(f) ? -1 : 0;
}

/* ---- Modes -------------------------------------------------------------------------------------- */

/* One payload: JSON line (or, with --reencode, the re-encoded payload as hex), or "rejected: STATUS". */
static int run_single(const char *path, int hex, int reencode, uint64_t now) {
    Input in;
    Decoded d;
    const char *status;
    FILE *f;
    int bad;

    input_reset(&in);
    if (strcmp(path, "-") == 0) {
        f = stdin; /* C99 cannot portably switch stdin to binary mode: see README (Windows) */
    } else {
        f = fopen(path, hex ? "r" : "rb");
        if (f == NULL) {
            fprintf(stderr, "pet_save_read: cannot open %s\n", path);
            return EXIT_USAGE;
        }
    }
    bad = hex ? read_hex_stream(f, &in) : read_raw_stream(f, &in);
    if (f != stdin) fclose(f);
    if (bad) {
        fprintf(stderr, "pet_save_read: %s: %s\n", path, hex ? "not hex text (odd digit count or a stray character)" : "read error");
        return EXIT_USAGE;
    }

    status = decode(&in, now, &d);
    if (status != NULL) {
        printf("rejected: %s\n", status);
        return EXIT_REJECTED;
    }
    if (reencode) {
        unsigned char out[PAYLOAD_LENGTH];
        encode(&d, out);
        put_hex(out, PAYLOAD_LENGTH);
    } else {
        put_json(&d);
    }
    putchar('\n');
    return EXIT_ACCEPTED;
}

/* Many payloads from stdin, one per line: "NOW HEX" (HEX may be empty). One output line per input:
 *   ok<TAB>JSON                  or, with --reencode, ok<TAB>REENCODED-HEX<TAB>JSON
 *   rejected: STATUS
 *   error: WHY                   (a line that is not "NOW HEX")
 * Always exits 0 once stdin ends; per-line results are in the output. */
static int run_batch(int reencode) {
    int c = 0;
    while (c != EOF) {
        char now_text[32];
        size_t now_len = 0;
        int high = -1, bad = 0, seen_any = 0;
        uint64_t now = 0;
        Input in;
        Decoded d;
        const char *status;

        input_reset(&in);
        /* NOW: digits up to the first space. */
        while ((c = getchar()) != EOF && c != ' ' && c != '\n') {
            seen_any = 1;
            if (now_len + 1 < sizeof now_text) now_text[now_len++] = (char)c; else bad = 1;
        }
        if (c == EOF && !seen_any) break;
        now_text[now_len] = '\0';
        if (c == '\n' && !seen_any) continue; /* blank line */
        if (c != ' ' || parse_u64(now_text, &now) != 0) bad = 1;
        /* HEX: the rest of the line. */
        while (c != '\n' && c != EOF && (c = getchar()) != EOF && c != '\n') {
            int v = hex_value(c);
            if (c == '\r' || c == ' ') continue;
            if (v < 0) { bad = 1; continue; }
            if (high < 0) { high = v; } else { input_push(&in, (unsigned char)((high << 4) | v)); high = -1; }
        }
        if (high >= 0) bad = 1;
        if (bad) { printf("error: line is not \"NOW HEX\"\n"); continue; }

        status = decode(&in, now, &d);
        if (status != NULL) {
            printf("rejected: %s\n", status);
            continue;
        }
        printf("ok\t");
        if (reencode) {
            unsigned char out[PAYLOAD_LENGTH];
            encode(&d, out);
            put_hex(out, PAYLOAD_LENGTH);
            putchar('\t');
        }
        put_json(&d);
        putchar('\n');
    }
    fflush(stdout);
    return EXIT_ACCEPTED;
}

static int usage(void) {
    fprintf(stderr,
            "usage: pet_save_read [--hex] [--now MS] [--reencode] FILE|-\n"
            "       pet_save_read --batch [--reencode]   (stdin lines \"NOW HEX\")\n"
            "exit status: 0 accepted, 1 rejected, 2 bad usage or unreadable input\n");
    return EXIT_USAGE;
}

int main(int argc, char **argv) {
    int i, hex = 0, reencode = 0, batch = 0;
    uint64_t now = 0;
    const char *path = NULL;

    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--hex") == 0) {
            hex = 1;
        } else if (strcmp(argv[i], "--reencode") == 0) {
            reencode = 1;
        } else if (strcmp(argv[i], "--batch") == 0) {
            batch = 1;
        } else if (strcmp(argv[i], "--now") == 0) {
            if (i + 1 >= argc || parse_u64(argv[i + 1], &now) != 0) {
                fprintf(stderr, "pet_save_read: --now takes a decimal u64 number of milliseconds\n");
                return EXIT_USAGE;
            }
            i++;
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            fprintf(stderr, "pet_save_read: unknown option %s\n", argv[i]);
            return usage();
        } else if (path == NULL) {
            path = argv[i];
        } else {
            return usage();
        }
    }
    if (batch) return path == NULL && !hex ? run_batch(reencode) : usage();
    if (path == NULL) return usage();
    return run_single(path, hex, reencode, now);
}
