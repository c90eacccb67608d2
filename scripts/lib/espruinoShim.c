/*
 * espruinoShim.c: an LD_PRELOAD library for Espruino's Linux build, loaded by
 * scripts/lib/espruinoLinux.js when it starts an interpreter (tests, bench, soak). It changes
 * nothing of the interpreter's JavaScript or flash behaviour; it only lets several interpreters run
 * side by side.
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
 * Built with: cc -shared -fPIC -O2 -o espruinoShim.so espruinoShim.c -ldl
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <dlfcn.h>
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
