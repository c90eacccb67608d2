/**
 * Loaded into the espruino tool's process (`node --require uploaderShim.cjs espruino-cli.js ...`,
 * see runEspruinoCli in espruinoTool.ts). It changes three things, all after the tool's own init, through
 * the objects the tool itself uses (EspruinoTools 0.1.67: index.js `init`, Espruino.Core.Serial):
 *
 * - PET_NAMED_PORT=PATH: the tool connects only to ports its list shows, and its list misses ports
 *   that are there (no udevadm, WSL 1's /dev/ttyS*, a pty). We add one more "device" to its serial
 *   layer whose list is exactly that path, opened with the tool's own Node Serial code when it is
 *   loaded (same serialport, same baud rate), otherwise with serialport directly and the same
 *   settings. SERIAL_IGNORE is emptied so the path is not dropped from our list either.
 * - PET_MARKERS=1: lines for the calling script on stdout (the tool swallows console.log unless
 *   --verbose): "[pet] board answered" once, when the first byte arrives from the board (the tool
 *   reports "Upload Complete" even when nothing ever answers), and "[pet] progress SENT TOTAL" at
 *   every fifth of the upload, TOTAL being what the tool announces it will send.
 */
"use strict";
const path = require("node:path");

const index = require(path.join(path.dirname(require.resolve("espruino/package.json")), "index.js"));
const namedPort = process.env.PET_NAMED_PORT || "";
const markers = process.env.PET_MARKERS === "1";

function marker(text) {
  process.stdout.write("[pet] " + text + "\n");
}

/** A serial device over serialport, for when the tool's own Node Serial device is not loaded. */
function directDevice() {
  let connection;
  return {
    open(portPath, openCallback, receiveCallback, disconnectCallback) {
      const { SerialPort } = require("serialport");
      connection = new SerialPort({ path: portPath, baudRate: parseInt(global.Espruino.Config.BAUD_RATE, 10) });
      connection.on("open", () => openCallback("Ok"));
      connection.on("error", (e) => console.error("serial: " + e.message));
      connection.on("data", (data) => receiveCallback(new Uint8Array(data).buffer));
      connection.on("close", () => {
        connection = undefined;
        disconnectCallback();
      });
    },
    write(data, callback) {
      connection.write(Buffer.from(data, "latin1"), callback);
    },
    close(callback) {
      if (connection) connection.close(callback);
    },
  };
}

function addNamedPort(Serial) {
  const own = Serial.devices.find((d) => d.name === "Node Serial");
  const base = own || directDevice();
  Serial.devices.push({
    name: "Named port",
    getPorts: (callback) => callback([{ path: namedPort, description: "named port" }], true),
    open: base.open,
    write: base.write,
    close: base.close,
  });
  global.Espruino.Config.SERIAL_IGNORE = "";
}

function addMarkers(Serial) {
  let answered = false;
  const connection = Serial.connection;
  const rx = connection.rxDataHandler.bind(connection);
  connection.rxDataHandler = (data) => {
    if (!answered && data.byteLength > 0) {
      answered = true;
      marker("board answered");
    }
    return rx(data);
  };
  // The tool announces a long write with Status.setStatus("Sending...", length); count what the
  // devices then really write.
  let total = 0;
  let sent = 0;
  let step = 0;
  const status = global.Espruino.Core.Status;
  const setStatus = status.setStatus;
  status.setStatus = (text, length) => {
    if (typeof length === "number" && length > 0) {
      total = length;
      sent = 0;
      step = 0;
    }
    return setStatus(text, length);
  };
  for (const device of Serial.devices) {
    const write = device.write;
    device.write = (data, callback) => {
      if (total > 0) {
        sent = Math.min(total, sent + data.length);
        const now = Math.floor((sent * 5) / total);
        if (now > step) {
          step = now;
          marker("progress " + sent + " " + total);
        }
        if (sent === total) total = 0;
      }
      return write(data, callback);
    };
  }
}

const init = index.init;
index.init = function (callback) {
  return init(function () {
    const Serial = global.Espruino.Core.Serial;
    if (namedPort) addNamedPort(Serial);
    if (markers) addMarkers(Serial);
    callback();
  });
};
