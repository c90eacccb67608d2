/*
 * espruinoShim.c: an LD_PRELOAD library for Espruino's Linux build, loaded by
 * src/host/node/interpreter/espruinoLinux.ts when it starts an interpreter (tests, bench, soak). It does two
 * things, each only when asked to through the environment: it lets several interpreters run side by
 * side (PET_TELNET_PORT_FILE), and it makes the flash lie the way a board's flash can
 * (PET_FLASH_FAULTS). Without those variables every call is passed through untouched.
 *
 * Console port.
 *
 * The telnet console (`espruino --telnet`) always binds port 2323 on every interface, so two
 * interpreters on one machine fight over it (with SO_REUSEPORT, which the build sets, both even
 * succeed and the kernel shares the connections between them). With PET_TELNET_PORT_FILE set, a bind
 * of port 2323 binds a free port on 127.0.0.1 instead (the console is then not open to the network
 * either) and writes that port's number, in decimal, to the file named (through a temporary file and
 * a rename, so a reader never sees half a number). Later binds of 2323 by the same process (the
 * console is restarted by load() and reset()) get the same port back, so a client reconnects where
 * it was. Every other bind is passed through untouched.
 *
 * Flash faults (docs/storage.md, "Flash that lies"). The Linux build keeps its flash in the file
 * espruino.flash and opens it for every operation: an erase is fopen, fseek, one fwrite of a whole
 * page of 0xFF, fclose; a write is fopen, fseek, fread of the old bytes, fseek, fwrite of the old
 * bytes ANDed with the new, fclose (reads go through a memory mapping of the file, or fread). So an
 * fwrite to that file with no fread before it on the same FILE is an erase, one after an fread a
 * write. With PET_FLASH_FAULTS naming a control file, that file is read at every such fwrite and may
 * say (one item a line, # starts a comment):
 *
 *   region OFFSET LENGTH                 byte offsets in espruino.flash (decimal or 0x...); only an
 *                                        operation lying wholly inside is ever faulted
 *   OP MODE [after N] [count N]          OP write or erase; MODE silent (nothing lands, success is
 *                                        reported) or half (the first half lands, in whole 4-byte
 *                                        words: a write's bytes, an erase's page); the first N
 *                                        matching operations pass, then `count` of them fail
 *                                        (default: all). The names and meanings are the simulator's
 *                                        (src/storage/norFlashSim.ts, FailureRule).
 *
 * The counts start again whenever the file's text changes, so a test switches faults on and off
 * while the interpreter runs by rewriting the file (through a rename). Every fault applied is
 * appended as one line to the control file's name plus ".log": "OP MODE OFFSET LENGTH".
 *
 * Built with: cc -shared -fPIC -O2 -o espruinoShim.so espruinoShim.c -ldl
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define ESPRUINO_TELNET_PORT 2323

typedef int (*bind_fn)(int, const struct sockaddr *, socklen_t);

/* The port this process's console was given; 0 until the first bind. */
static unsigned short consolePort = 0;

static void writePortFile(const char *path, unsigned short port) {
  char tmp[4096];
  if (snprintf(tmp, sizeof tmp, "%s.%ld.tmp", path, (long)getpid()) >= (int)sizeof tmp) return;
  FILE *f = fopen(tmp, "w");
  if (!f) return;
  fprintf(f, "%u\n", (unsigned)port);
  if (fclose(f) == 0) rename(tmp, path);
  else unlink(tmp);
}

int bind(int fd, const struct sockaddr *addr, socklen_t len) {
  static bind_fn realBind = 0;
  if (!realBind) realBind = (bind_fn)dlsym(RTLD_NEXT, "bind");
  const char *portFile = getenv("PET_TELNET_PORT_FILE");
  if (!portFile || !addr || addr->sa_family != AF_INET || len < (socklen_t)sizeof(struct sockaddr_in) ||
      ntohs(((const struct sockaddr_in *)addr)->sin_port) != ESPRUINO_TELNET_PORT) {
    return realBind(fd, addr, len);
  }
  struct sockaddr_in local;
  memcpy(&local, addr, sizeof local);
  local.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  local.sin_port = htons(consolePort); /* 0 the first time: the kernel picks a free port */
  int r = realBind(fd, (const struct sockaddr *)&local, sizeof local);
  if (r == 0 && consolePort == 0) {
    struct sockaddr_in bound;
    socklen_t boundLen = sizeof bound;
    if (getsockname(fd, (struct sockaddr *)&bound, &boundLen) == 0) {
      consolePort = ntohs(bound.sin_port);
      writePortFile(portFile, consolePort);
    }
  }
  return r;
}

/* ---- Flash faults ------------------------------------------------------------------------------ */

#define FLASH_FILE_NAME "espruino.flash"
#define MAX_OPEN 8
#define MAX_RULES 8
#define MAX_CONTROL 4096

typedef FILE *(*fopen_fn)(const char *, const char *);
typedef int (*fclose_fn)(FILE *);
typedef size_t (*fio_fn)(void *, size_t, size_t, FILE *);
typedef size_t (*fwrite_fn)(const void *, size_t, size_t, FILE *);

/* The flash file's FILEs now open, and whether each has been read from (a write) or not (an erase). */
static FILE *flashFiles[MAX_OPEN];
static int flashRead[MAX_OPEN];

struct rule {
  int erase; /* 1: erase, 0: write */
  int half;  /* 1: half, 0: silent */
  long after, count;
  long seen, failed;
};
static struct rule rules[MAX_RULES];
static int ruleCount = 0;
static long regionStart = 0, regionLength = 0;
static char controlText[MAX_CONTROL];
static int controlLength = -1;

/* Where `f` is in flashFiles (-1: not the flash file); slotOf(0) finds a free place. */
static int slotOf(FILE *f) {
  for (int i = 0; i < MAX_OPEN; i++)
    if (flashFiles[i] == f) return i;
  return -1;
}

static int tracked(FILE *f) {
  return f ? slotOf(f) : -1;
}

static int isFlashFile(const char *path) {
  const char *slash = strrchr(path, '/');
  return strcmp(slash ? slash + 1 : path, FLASH_FILE_NAME) == 0;
}

FILE *fopen(const char *path, const char *mode) {
  static fopen_fn realFopen = 0;
  if (!realFopen) realFopen = (fopen_fn)dlsym(RTLD_NEXT, "fopen");
  FILE *f = realFopen(path, mode);
  if (f && path && getenv("PET_FLASH_FAULTS") && isFlashFile(path)) {
    int i = slotOf(0);
    if (i >= 0) {
      flashFiles[i] = f;
      flashRead[i] = 0;
    }
  }
  return f;
}

int fclose(FILE *f) {
  static fclose_fn realFclose = 0;
  if (!realFclose) realFclose = (fclose_fn)dlsym(RTLD_NEXT, "fclose");
  int i = tracked(f);
  if (i >= 0) flashFiles[i] = 0;
  return realFclose(f);
}

size_t fread(void *buf, size_t size, size_t n, FILE *f) {
  static fio_fn realFread = 0;
  if (!realFread) realFread = (fio_fn)dlsym(RTLD_NEXT, "fread");
  int i = tracked(f);
  if (i >= 0) flashRead[i] = 1;
  return realFread(buf, size, n, f);
}

static long number(const char *s) {
  return strtol(s, 0, 0);
}

/* Reads the control file; when its text changed, parses it again and starts the counts afresh. */
static void loadControl(const char *path) {
  char text[MAX_CONTROL];
  int fd = open(path, O_RDONLY);
  int len = 0;
  if (fd >= 0) {
    ssize_t r;
    while (len < MAX_CONTROL - 1 && (r = read(fd, text + len, MAX_CONTROL - 1 - len)) > 0) len += (int)r;
    close(fd);
  }
  text[len] = 0;
  if (len == controlLength && memcmp(text, controlText, (size_t)len) == 0) return;
  memcpy(controlText, text, (size_t)len + 1);
  controlLength = len;
  ruleCount = 0;
  regionStart = regionLength = 0;
  char *save = 0;
  for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(0, "\n", &save)) {
    char *words[8];
    int w = 0;
    char *wsave = 0;
    for (char *word = strtok_r(line, " \t\r", &wsave); word && w < 8; word = strtok_r(0, " \t\r", &wsave)) words[w++] = word;
    if (w == 0 || words[0][0] == '#') continue;
    if (strcmp(words[0], "region") == 0 && w >= 3) {
      regionStart = number(words[1]);
      regionLength = number(words[2]);
      continue;
    }
    if (w < 2 || ruleCount >= MAX_RULES) continue;
    int erase = strcmp(words[0], "erase") == 0;
    if (!erase && strcmp(words[0], "write") != 0) continue;
    int half = strcmp(words[1], "half") == 0;
    if (!half && strcmp(words[1], "silent") != 0) continue;
    struct rule *r = &rules[ruleCount++];
    r->erase = erase;
    r->half = half;
    r->after = 0;
    r->count = -1;
    r->seen = r->failed = 0;
    for (int k = 2; k + 1 < w; k += 2) {
      if (strcmp(words[k], "after") == 0) r->after = number(words[k + 1]);
      else if (strcmp(words[k], "count") == 0) r->count = number(words[k + 1]);
    }
  }
}

/* The rule that faults this operation (counting it), or 0. */
static struct rule *faultFor(int erase) {
  for (int i = 0; i < ruleCount; i++) {
    struct rule *r = &rules[i];
    if (r->erase != erase) continue;
    if (++r->seen <= r->after) continue;
    if (r->count >= 0 && r->failed >= r->count) continue;
    r->failed++;
    return r;
  }
  return 0;
}

static void logFault(const char *control, struct rule *r, long at, size_t len) {
  char path[4096];
  if (snprintf(path, sizeof path, "%s.log", control) >= (int)sizeof path) return;
  int fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0644);
  if (fd < 0) return;
  char line[128];
  int n = snprintf(line, sizeof line, "%s %s %ld %zu\n", r->erase ? "erase" : "write", r->half ? "half" : "silent", at, len);
  if (n > 0) (void)!write(fd, line, (size_t)n);
  close(fd);
}

size_t fwrite(const void *buf, size_t size, size_t n, FILE *f) {
  static fwrite_fn realFwrite = 0;
  if (!realFwrite) realFwrite = (fwrite_fn)dlsym(RTLD_NEXT, "fwrite");
  int i = tracked(f);
  const char *control = getenv("PET_FLASH_FAULTS");
  if (i < 0 || !control || size == 0 || n == 0) return realFwrite(buf, size, n, f);
  size_t len = size * n;
  long at = ftell(f);
  loadControl(control);
  if (at < 0 || regionLength <= 0 || at < regionStart || at + (long)len > regionStart + regionLength) return realFwrite(buf, size, n, f);
  int erase = !flashRead[i];
  if (erase) {
    /* An erase writes a page of 0xFF; anything else unread (a new file's padding) is not one. */
    for (size_t k = 0; k < len; k++)
      if (((const unsigned char *)buf)[k] != 0xFF) return realFwrite(buf, size, n, f);
  }
  struct rule *r = faultFor(erase);
  if (!r) return realFwrite(buf, size, n, f);
  logFault(control, r, at, len);
  if (r->half) {
    size_t part = (len / 2) & ~(size_t)3;
    if (part > 0) realFwrite(buf, 1, part, f);
  }
  return n; /* success, as the board's port reports whatever happened */
}
