// Primitive costs inside the interpreter, ES5 for Espruino, run from Storage like floor.js (which
// must be loaded first: benchScratch() gives the erased scratch flash). primLoop(name, n) does the
// named primitive n times after an untimed-by-design setup that is the same for every n, so
// (cost(name, N) - cost(name, 0)) / N is one primitive plus one loop step, and subtracting the
// same for "empty" leaves the primitive. primTime answers that per operation in milliseconds.
(function () {
  var F = require("Flash");
  var sink;
  function f(a) {
    return a;
  }
  var s1 = "Benchmark";
  var u = new Uint8Array(84);
  var v = new Uint8Array(16);
  var dv = new DataView(u.buffer);

  function eraseAll(c) {
    for (var p = 0; p < c.pages; p++) F.erasePage(c.scratch + p * c.pageSize);
  }

  // Each answers a function(n) that runs the primitive n times; setup happens before the loop.
  var loops = {
    empty: function (n) {
      for (var i = 0; i < n; i++) {}
    },
    call: function (n) {
      for (var i = 0; i < n; i++) f(i);
    },
    closure: function (n) {
      for (var i = 0; i < n; i++)
        sink = function () {
          return i;
        };
    },
    concat: function (n) {
      for (var i = 0; i < n; i++) sink = s1 + "!";
    },
    subarray: function (n) {
      for (var i = 0; i < n; i++) sink = u.subarray(49, 80);
    },
    typedSet: function (n) {
      for (var i = 0; i < n; i++) u.set(v, 49);
    },
    dataView: function (n) {
      for (var i = 0; i < n; i++) dv.setUint32(6, i, true);
    },
    crc32: function (n) {
      var c = u.subarray(0, 80);
      for (var i = 0; i < n; i++) sink = E.CRC32(c);
    },
    flashRead: function (n) {
      var a = benchScratch().scratch;
      for (var i = 0; i < n; i++) sink = F.read(84, a);
    },
    flashWrite: function (n) {
      // n writes of 84 bytes at 88-byte steps into freshly erased pages (n * 88 must fit).
      var c = benchScratch();
      eraseAll(c);
      for (var i = 0; i < n; i++) F.write(u, c.scratch + i * 88);
    },
    erasePage: function (n) {
      var c = benchScratch();
      for (var i = 0; i < n; i++) F.erasePage(c.scratch + (i % c.pages) * c.pageSize);
    }
  };

  global.primLoop = function (name, n) {
    loops[name](n);
    return true;
  };
  global.primNames = function () {
    return Object.keys(loops);
  };

  function sample(name, n) {
    var s = getTime();
    loops[name](n);
    return (getTime() - s) * 1000;
  }
  function min(t) {
    var m = t[0];
    for (var i = 1; i < t.length; i++) if (t[i] < m) m = t[i];
    return m;
  }
  // Milliseconds per operation: (n operations - 0 operations) less the same for the empty loop,
  // divided by n, each term the fastest of `runs` interleaved samples (load on a shared machine
  // only ever adds time, so the fastest sample is the steadiest estimate of the cost itself).
  global.primTime = function (name, n, runs) {
    var a = [], b = [], c = [], d = [];
    for (var r = 0; r < runs; r++) {
      a.push(sample(name, n));
      b.push(sample(name, 0));
      c.push(sample("empty", n));
      d.push(sample("empty", 0));
    }
    return (min(a) - min(b) - (min(c) - min(d))) / n;
  };
})();
