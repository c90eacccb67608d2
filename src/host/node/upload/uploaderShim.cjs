/**
 * Loaded into the espruino tool's process (`node --require uploaderShim.cjs espruino-cli.js ...`,
 * see cliSpawn in espruinoTool.ts: the terminal of `npm run upload -- --monitor`). It changes one
 * thing, after the tool's own init, through the objects the tool itself uses (EspruinoTools 0.1.67:
 * index.js `init`, Espruino.Core.Serial):
 *
 * - PET_NAMED_PORT=PATH: the tool connects only to ports its list shows, and its list misses ports
 *   that are there (no udevadm, WSL 1's /dev/ttyS*, a pty). We add one more "device" to its serial
 *   layer whose list is exactly that path, opened with the tool's own Node Serial code when it is
 *   loaded (same serialport, same baud rate), otherwise with serialport directly and the same
 *   settings. SERIAL_IGNORE is emptied so the path is not dropped from our list either.
 */
"use strict";
const path = require("node:path");

const index = require(path.join(path.dirname(require.resolve("espruino/package.json")), "index.js"));
const namedPort = process.env.PET_NAMED_PORT || "";

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

const init = index.init;
index.init = function (callback) {
  return init(function () {
    const Serial = global.Espruino.Core.Serial;
    if (namedPort) addNamedPort(Serial);
    callback();
  });
};
