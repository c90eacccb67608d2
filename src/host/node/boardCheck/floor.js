// The bench's harness and its floor, ES5 for Espruino, shared by the bench and board-check (which is
// why it lives here, with the product code: board-check types it at a board's console, onBoard.ts,
// whose floorFile() is where it is found).
// scripts/bench/firmware.ts writes this file to Storage as "floor.js" and runs it with
// eval(require("Storage").read("floor.js")), so its function text lives in Storage like the firmware's
// .bootcde (code typed at the console runs ~4x faster on the Linux build; compare like with like). It
// defines globals only; nothing runs at load.
//
// The floor is the least expensive pet save and restore we know how to write: one DataView over one
// preallocated 84-byte payload (save format v1: src/save/layout.ts, docs/save-format-v1.md), E.CRC32
// over bytes 0..79, one Flash.write of the 84 bytes plus one 4-byte mark into erased flash; restore
// is one Flash.read of 84 bytes, E.CRC32, and a DataView decode into a new object.
//
// A written-out copy of the codec, the world's rules, the time away and the slot log's boot, held to
// the real code by test/floor-agrees-with-the-firmware.test.ts. Every Flash.read is of 1 byte or at
// least 24 (2 to 22 are unsafe on Espruino's ESP32 builds: src/storage/flash.ts SAFE_READ_MIN).
//
// npm run board-check types this same file at a board's console (nothing of it goes to Storage) and
// calls benchInit with `board: true`: then no flash is erased and no Storage file written, the floor
// save writes all-ones (0xFF) where it would write the payload and the mark, which programs nothing on
// NOR flash (every bit a save needs stays as it was), and the floor restore reads the pet's current
// save, read only. Only floorEncode, floorSave, floorRestore and the pet's own ops run there.
(function () {
  var F = require("Flash");
  var S = require("Storage");
  var cfg = null; // { scratch: address, pages: count, pageSize: bytes, wall?: ms }, from benchInit
  var SLOT = 88; // 84-byte payload + 4-byte mark
  var next = 0; // next free slot in the scratch area
  var last = -1; // address of the last floor save

  var buf = new Uint8Array(84);
  var dv = new DataView(buf.buffer);
  var covered = new Uint8Array(buf.buffer, 0, 80);
  var MARK = new Uint8Array([0x50, 0x45, 0x54, 0x21]);

  // The world the floor saves, shaped like the firmware's (u64s as {hi, lo}).
  var W = {
    elapsed: { hi: 3, lo: 123456789 },
    updateCount: { hi: 0, lo: 99999 },
    savedAt: { hi: 411, lo: 1957800000 },
    activity: 1,
    expression: 2,
    activitySince: { hi: 0, lo: 5000 },
    expressionSince: { hi: 0, lo: 7000 },
    name: E.toUint8Array("Benchmark Pet")
  };

  function encode(w) {
    dv.setUint32(0, 0x53544550, true); // "PETS"
    dv.setUint16(4, 1, true);
    dv.setUint32(6, w.elapsed.lo, true);
    dv.setUint32(10, w.elapsed.hi, true);
    dv.setUint32(14, w.updateCount.lo, true);
    dv.setUint32(18, w.updateCount.hi, true);
    dv.setUint32(22, w.savedAt.lo, true);
    dv.setUint32(26, w.savedAt.hi, true);
    dv.setUint8(30, w.activity);
    dv.setUint8(31, w.expression);
    dv.setUint32(32, w.activitySince.lo, true);
    dv.setUint32(36, w.activitySince.hi, true);
    dv.setUint32(40, w.expressionSince.lo, true);
    dv.setUint32(44, w.expressionSince.hi, true);
    dv.setUint8(48, w.name.length);
    buf.fill(0, 49, 80);
    buf.set(w.name, 49);
    dv.setUint32(80, E.CRC32(covered), true);
    return buf;
  }

  function save(w, addr) {
    F.write(encode(w), addr);
    F.write(MARK, addr + 84);
  }

  function restore(addr) {
    var r = F.read(84, addr);
    var d = new DataView(r.buffer);
    if (E.CRC32(new Uint8Array(r.buffer, 0, 80)) !== d.getUint32(80, true)) return null;
    if (d.getUint32(0, true) !== 0x53544550 || d.getUint16(4, true) !== 1 || r[48] > 31) return null;
    return {
      elapsed: { hi: d.getUint32(10, true), lo: d.getUint32(6, true) },
      updateCount: { hi: d.getUint32(18, true), lo: d.getUint32(14, true) },
      savedAt: { hi: d.getUint32(26, true), lo: d.getUint32(22, true) },
      activity: r[30],
      expression: r[31],
      activitySince: { hi: d.getUint32(36, true), lo: d.getUint32(32, true) },
      expressionSince: { hi: d.getUint32(44, true), lo: d.getUint32(40, true) },
      name: new Uint8Array(r.buffer, 49, r[48])
    };
  }

  // The safe floor: the least a save and a restore can cost while doing what the format contract
  // and docs/storage.md make each of them do, written in the floor's style (one function each, no
  // helpers, native calls wherever one exists). The floor above skips all of it, so the ratio of
  // the safe floor to the floor is the part of any firmware's ratio that no rewrite can remove.
  //
  // Save: the world checked against the Core's rules before it is encoded (so that nothing the
  // reader would refuse is ever written), the slot and its mark read and found erased, the payload
  // written and read back equal, the one-byte mark written and read back.
  var ZERO = new Uint8Array(1);
  function safeSave(w, addr) {
    var c = w.elapsed, n = w.updateCount, as = w.activitySince, es = w.expressionSince, nm = w.name;
    if (
      w.activity >>> 0 !== w.activity || w.activity >= 5 || w.expression >>> 0 !== w.expression || w.expression >= 6 ||
      !(nm instanceof Uint8Array) || nm.length < 1 || nm.length > 31 || nm.indexOf(0) >= 0 ||
      c.hi >>> 0 !== c.hi || c.lo >>> 0 !== c.lo || n.hi >>> 0 !== n.hi || n.lo >>> 0 !== n.lo ||
      as.hi >>> 0 !== as.hi || as.lo >>> 0 !== as.lo || es.hi >>> 0 !== es.hi || es.lo >>> 0 !== es.lo ||
      as.hi > c.hi || (as.hi === c.hi && as.lo > c.lo) || es.hi > c.hi || (es.hi === c.hi && es.lo > c.lo)
    ) return false;
    var p = encode(w);
    if (F.read(1, addr + 84)[0] !== 255 || E.sum(F.read(84, addr)) !== 21420) return false;
    F.write(p, addr);
    if (E.toString(F.read(84, addr)) !== E.toString(p)) return false;
    F.write(ZERO, addr + 84);
    return F.read(1, addr + 84)[0] === 0;
  }

  // The safe floor's export: what pet.exportHex() must do, the least it can cost. The world checked
  // as the safe save checks it (an export of a world the reader refuses would be a backup that does
  // not load), encoded, and the 84 bytes as 168 lower-case hex digits through one native map.
  var HEX_DIGITS = E.toUint8Array("0123456789abcdef");
  function safeExport(w) {
    // safeSave's check, written again: each floor operation is one function with no helper calls,
    // so that what it costs is its own work (floor-agrees holds both checks to validateWorld).
    var c = w.elapsed, n = w.updateCount, as = w.activitySince, es = w.expressionSince, nm = w.name;
    if (
      w.activity >>> 0 !== w.activity || w.activity >= 5 || w.expression >>> 0 !== w.expression || w.expression >= 6 ||
      !(nm instanceof Uint8Array) || nm.length < 1 || nm.length > 31 || nm.indexOf(0) >= 0 ||
      c.hi >>> 0 !== c.hi || c.lo >>> 0 !== c.lo || n.hi >>> 0 !== n.hi || n.lo >>> 0 !== n.lo ||
      as.hi >>> 0 !== as.hi || as.lo >>> 0 !== as.lo || es.hi >>> 0 !== es.hi || es.lo >>> 0 !== es.lo ||
      as.hi > c.hi || (as.hi === c.hi && as.lo > c.lo) || es.hi > c.hi || (es.hi === c.hi && es.lo > c.lo)
    ) return null;
    var digits = new Uint8Array(168);
    E.mapInPlace(encode(w), digits, HEX_DIGITS, 4);
    return E.toString(digits);
  }

  // The floor's export: the floor's encode and the hex through the same native map, the world not
  // checked. What an export costs when it trusts its world, so the bench can show how much of the
  // safe export (and of pet.exportHex()) is the hex alone.
  function plainExport(w) {
    var digits = new Uint8Array(168);
    E.mapInPlace(encode(w), digits, HEX_DIGITS, 4);
    return E.toString(digits);
  }

  // Restore, from the pet's own region (read only), as the firmware's store restores: every header in
  // one native map (24 bytes each), the sequence words picked out natively, the largest one's header
  // checked, that sector's marks classified natively, the newest committed slot read and checked by
  // the slot log's rule (the codec's acceptance without a clock: the stamps within the stored clock),
  // then the absence added at `now` (a clock it would pass the end of: null, as the firmware refuses
  // it without going back). What this cannot settle (no log, sequence numbers from 2^31 - 1 on, a torn
  // header, nothing committed in the newest sector, a slot that fails) is restoreFully's, below.
  var KIND = new Uint8Array(256);
  KIND.fill(2);
  KIND[255] = 0;
  KIND[0] = 1;
  // Word 1 (the sequence word) of each sector's six words, for sixteen sectors at most.
  var SEQ = new Uint8Array([1, 7, 13, 19, 25, 31, 37, 43, 49, 55, 61, 67, 73, 79, 85, 91]);
  function safeRestore(L, now) {
    var words = new Int32Array(E.toUint8Array(L.headerAddresses.map(F.read.bind(F, 24))).buffer);
    if (L.sectorCount > 16) return restoreFully(L, now, words);
    var seq = new Int32Array(L.sectorCount);
    E.mapInPlace(SEQ, seq, words);
    var top = Math.max.apply(null, seq);
    if (!(top >= 0 && top < 0x7fffffff) || Math.min.apply(null, seq) < -1) return restoreFully(L, now, words);
    var first = seq.indexOf(top);
    if (words[6 * first] >>> 0 !== L.headerMagic || (top ^ words[6 * first + 2]) !== -1) return restoreFully(L, now, words);
    var base = L.address + first * L.sectorSize;
    var kinds = new Uint8Array(L.slotsPerSector);
    E.mapInPlace(F.read(L.slotsPerSector < 24 ? 24 : L.slotsPerSector, base + L.marksOffset), kinds, KIND);
    var ks = E.toString(kinds);
    var last = Math.max(ks.lastIndexOf("\x01"), ks.lastIndexOf("\x02"));
    if (last < 0) return restoreFully(L, now, words);
    var r = F.read(84, base + L.slotsOffset + last * 84);
    var d = new DataView(r.buffer);
    if (r.length < 6 || d.getUint32(0, true) !== 0x53544550 || d.getUint16(4, true) !== 1 || r.length !== 84) return restoreFully(L, now, words);
    if (E.CRC32(new Uint8Array(r.buffer, 0, 80)) >>> 0 !== d.getUint32(80, true)) return restoreFully(L, now, words);
    var nl = r[48];
    if (r[30] >= 5 || r[31] >= 6 || nl < 1 || nl > 31 || new Uint8Array(r.buffer, 49, nl).indexOf(0) >= 0 || E.sum(new Uint8Array(r.buffer, 49 + nl, 31 - nl)) !== 0) return restoreFully(L, now, words);
    var lo = d.getUint32(6, true);
    var hi = d.getUint32(10, true);
    var as = { hi: d.getUint32(36, true), lo: d.getUint32(32, true) };
    var es = { hi: d.getUint32(44, true), lo: d.getUint32(40, true) };
    if (as.hi > hi || (as.hi === hi && as.lo > lo) || es.hi > hi || (es.hi === hi && es.lo > lo)) return restoreFully(L, now, words);
    var savedAt = { hi: d.getUint32(26, true), lo: d.getUint32(22, true) };
    var away = 0;
    if (now > 0 && (savedAt.hi !== 0 || savedAt.lo !== 0)) {
      away = now - (savedAt.hi * 4294967296 + savedAt.lo);
      away = away < 0 ? 0 : away > 604800000 ? 604800000 : Math.floor(away);
    }
    lo += away;
    if (lo >= 4294967296) {
      lo -= 4294967296;
      hi++;
    }
    if (hi >= 4294967296) return null;
    return {
      world: {
        name: new Uint8Array(r.buffer, 49, nl),
        activity: r[30],
        expression: r[31],
        activitySince: as,
        expressionSince: es,
        elapsed: { hi: hi, lo: lo },
        updateCount: { hi: d.getUint32(18, true), lo: d.getUint32(14, true) }
      },
      savedAt: savedAt,
      absenceMs: away
    };
  }

  // The full restore (the rare cases): every header judged as the slot log's full scan judges it, the
  // valid sectors newest first in serial order (ties in sector order), in each the committed slots
  // from the highest down, the first that loads without a clock restored at `now`; at most four
  // checks, as the firmware.
  function restoreFully(L, now, words) {
    var order = [], seqs = [], i, j, s, x, top, n = L.slotsPerSector, checks = 0, k, slot, marks, r;
    for (i = 0; i < L.sectorCount; i++) {
      s = words[6 * i + 1] >>> 0;
      seqs.push(s);
      if (words[6 * i] >>> 0 === L.headerMagic && (words[6 * i + 1] ^ words[6 * i + 2]) === -1) order.push(i);
    }
    if (order.length === 0) return null;
    top = order[0];
    for (k = 1; k < order.length; k++) {
      x = (seqs[order[k]] - seqs[top]) >>> 0;
      if (x !== 0 && x < 0x80000000) top = order[k];
    }
    for (i = 1; i < order.length; i++) {
      x = order[i];
      for (j = i - 1; j >= 0 && ((seqs[top] - seqs[order[j]]) >>> 0) > ((seqs[top] - seqs[x]) >>> 0); j--) order[j + 1] = order[j];
      order[j + 1] = x;
    }
    for (k = 0; k < order.length; k++) {
      marks = F.read(n < 24 ? 24 : n, L.address + order[k] * L.sectorSize + L.marksOffset);
      for (slot = n - 1; slot >= 0; slot--) {
        if (marks[slot] === 255) continue;
        if (checks >= 4) return null;
        checks++;
        r = F.read(84, L.address + order[k] * L.sectorSize + L.slotsOffset + slot * 84);
        if (loadsWithoutClock(r)) return atClock(r, now);
      }
    }
    return null;
  }

  // The slot log's validity rule for one stored payload: the codec's acceptance with no wall clock.
  function loadsWithoutClock(r) {
    var d = new DataView(r.buffer), nl = r[48];
    if (r.length !== 84 || d.getUint32(0, true) !== 0x53544550 || d.getUint16(4, true) !== 1) return false;
    if (E.CRC32(new Uint8Array(r.buffer, 0, 80)) >>> 0 !== d.getUint32(80, true)) return false;
    if (r[30] >= 5 || r[31] >= 6 || nl < 1 || nl > 31 || new Uint8Array(r.buffer, 49, nl).indexOf(0) >= 0 || E.sum(new Uint8Array(r.buffer, 49 + nl, 31 - nl)) !== 0) return false;
    var hi = d.getUint32(10, true), lo = d.getUint32(6, true), ah = d.getUint32(36, true), al = d.getUint32(32, true), eh = d.getUint32(44, true), el = d.getUint32(40, true);
    return !(ah > hi || (ah === hi && al > lo) || eh > hi || (eh === hi && el > lo));
  }

  // A payload that loads without a clock, restored at `now` (null past the clock's end).
  function atClock(r, now) {
    var d = new DataView(r.buffer), savedAt = { hi: d.getUint32(26, true), lo: d.getUint32(22, true) }, away = 0;
    if (now > 0 && (savedAt.hi !== 0 || savedAt.lo !== 0)) {
      away = now - (savedAt.hi * 4294967296 + savedAt.lo);
      away = away < 0 ? 0 : away > 604800000 ? 604800000 : Math.floor(away);
    }
    var lo = d.getUint32(6, true) + away, hi = d.getUint32(10, true);
    if (lo >= 4294967296) {
      lo -= 4294967296;
      hi++;
    }
    if (hi >= 4294967296) return null;
    return {
      world: {
        name: new Uint8Array(r.buffer, 49, r[48]),
        activity: r[30],
        expression: r[31],
        activitySince: { hi: d.getUint32(36, true), lo: d.getUint32(32, true) },
        expressionSince: { hi: d.getUint32(44, true), lo: d.getUint32(40, true) },
        elapsed: { hi: hi, lo: lo },
        updateCount: { hi: d.getUint32(18, true), lo: d.getUint32(14, true) }
      },
      savedAt: savedAt,
      absenceMs: away
    };
  }

  // Erased scratch flash: erases the whole scratch area when the next slot would not fit (callers
  // do this outside the timed part).
  function eraseScratch() {
    for (var p = 0; p < cfg.pages; p++) F.erasePage(cfg.scratch + p * cfg.pageSize);
    next = 0;
  }
  function ensureSlot() {
    if ((next + 1) * SLOT > cfg.pages * cfg.pageSize) eraseScratch();
  }
  function takeSlot() {
    var a = cfg.scratch + next * SLOT;
    next++;
    return a;
  }

  function median(t) {
    t.sort(function (a, b) {
      return a - b;
    });
    return t[t.length >> 1];
  }

  // Times op(i) `runs` times with getTime(); before(i), when given, runs first and is not timed.
  // Answers {ms: median, min, max} in milliseconds.
  function time(op, runs, before) {
    var t = [];
    var i, s, e;
    for (i = 0; i < runs; i++) {
      if (before) before(i);
      s = getTime();
      op(i);
      e = getTime();
      t.push((e - s) * 1000);
    }
    var m = median(t);
    return { ms: m, min: t[0], max: t[t.length - 1] };
  }

  var wall = 0;
  var payload = new Uint8Array(84);

  // The operations, each a function(i); `pre` holds the untimed part that must come first.
  var ops = {
    // The harness alone (for instruction counts, which cover the whole run).
    nothing: function () {},
    floorEncode: function (i) {
      W.updateCount.lo = i;
      encode(W);
    },
    floorSave: function (i) {
      W.updateCount.lo = i;
      last = takeSlot();
      save(W, last);
    },
    floorRestore: function () {
      if (restore(last) === null) throw new Error("floor restore found no save at " + last);
    },
    floorExport: function (i) {
      W.updateCount.lo = i;
      plainExport(W);
    },
    safeFloorSave: function (i) {
      W.updateCount.lo = i;
      last = takeSlot();
      if (!safeSave(W, last)) throw new Error("safe floor save failed at " + last);
    },
    safeFloorRestore: function () {
      if (safeRestore(cfg.petLayout, wall) === null) throw new Error("safe floor restore found no save");
    },
    safeFloorExport: function (i) {
      W.updateCount.lo = i;
      if (safeExport(W) === null) throw new Error("safe floor export refused its world");
    },
    storageWrite: function (i) {
      payload[20] = i & 255;
      S.write("bench.dat", payload);
    },
    storageRead: function () {
      if (S.readArrayBuffer("bench.dat").byteLength !== 84) throw new Error("bench.dat is not 84 bytes");
    },
    petInteract: function () {
      pet.interact();
    },
    petSave: function () {
      pet.save();
    },
    petStatus: function () {
      pet.status();
    },
    petExportHex: function () {
      pet.exportHex();
    },
    petRestore: function () {
      benchRestore(wall);
    },
    // board-check's: pet.save() with no interaction first (that would change the pet), a restore as
    // a boot reads it (pet.checkSave()), and one loop step (pet.tick(), 2 ms after the last: idle).
    petSaveAlone: function () {
      pet.save();
    },
    petCheckSave: function () {
      pet.checkSave();
    },
    petTick: function () {
      pet.tick();
    },
    regionCheck: function () {
      if (benchRegionCheck() !== 0) throw new Error("the region check refused the bench's own region");
    }
  };
  var pre = {
    floorSave: function () {
      ensureSlot();
    },
    safeFloorSave: function () {
      ensureSlot();
    },
    petSave: function () {
      pet.interact();
    },
    petTick: function () {
      var t = getTime() + 0.002;
      while (getTime() < t);
    }
  };

  var ONES = new Uint8Array(84).fill(255);
  var ONES4 = new Uint8Array(4).fill(255);

  global.benchInit = function (c) {
    cfg = c;
    wall = c.wall || Date.now();
    if (c.board) {
      // On a board (board-check): the same encode and the same two writes, of all-ones into
      // c.scratch; the restore reads c.readAt, the pet's current save. Nothing erased, nothing in Storage.
      save = function (w, addr) {
        F.write(encode(w) && ONES, addr);
        F.write(ONES4, addr + 84);
      };
      ensureSlot = function () {};
      takeSlot = function () {
        return c.scratch;
      };
      ops.floorRestore = function () {
        if (restore(c.readAt) === null) throw new Error("floor restore found no save at " + c.readAt);
      };
      return true;
    }
    payload.set(encode(W));
    eraseScratch();
    // One floor save and one Storage file, so that the restores have something to read.
    last = takeSlot();
    save(W, last);
    S.write("bench.dat", payload);
    return true;
  };
  // Runs one named operation `runs` times; answers {ms, min, max}.
  global.benchOp = function (name, runs) {
    if (!ops[name]) throw new Error("no bench op " + name);
    return time(ops[name], runs, pre[name]);
  };
  // One run of a named operation between open() and close(), which open and close the emulated
  // chip's instruction-counting window (scripts/bench/chip.ts): its untimed part first, outside it.
  global.benchMarked = function (name, i, open, close) {
    var op = ops[name];
    if (!op) throw new Error("no bench op " + name);
    if (pre[name]) pre[name](i);
    open();
    op(i);
    close();
  };
  // Checks that the operations do what they claim (not timed): answers a short text, "ok" if fine.
  global.benchCheck = function () {
    ensureSlot();
    last = takeSlot();
    save(W, last);
    var back = restore(last);
    if (back === null || back.elapsed.lo !== W.elapsed.lo || back.name.length !== W.name.length) return "floor save/restore round trip failed";
    ensureSlot();
    last = takeSlot();
    if (!safeSave(W, last)) return "safe floor save failed";
    back = restore(last);
    if (back === null || back.updateCount.lo !== W.updateCount.lo) return "safe floor save did not read back";
    var safe = safeRestore(cfg.petLayout, wall);
    if (safe === null) return "safe floor restore found no save";
    var r0 = benchRestore(wall);
    // (The bundle shortens the world's other property names; these three keep theirs.)
    var w0 = r0.loaded.world;
    if (w0.updateCount.lo !== safe.world.updateCount.lo || w0.activity !== safe.world.activity || w0.expression !== safe.world.expression) return "safe floor restore and the firmware's disagree";
    var ex = safeExport(W);
    if (ex === null || ex.length !== 168 || ex.slice(0, 12) !== "504554530100") return "safe floor export gave " + ex;
    var hex = pet.exportHex();
    if (typeof hex !== "string" || hex.length < 168) return "pet.exportHex() gave " + hex;
    var r = benchRestore(wall);
    if (typeof r !== "object" || r === null) return "restore gave " + r;
    if (r.loaded === null || r.loaded === undefined || r.loaded.status !== "ok") return "restore: " + (r.status || "") + " " + (r.reason || "");
    return "ok";
  };
  // The flash the floor writes, for instruction counts and the primitives (prims.js).
  global.benchScratch = function () {
    return cfg;
  };
  // For test/floor-agrees-with-the-firmware.test.ts.
  global.benchFloor = { encode: encode, restore: restore, safeSave: safeSave, safeRestore: safeRestore, safeExport: safeExport, plainExport: plainExport };
})();
