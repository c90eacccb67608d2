/**
 * A model of an SSD1306 128x64 OLED on I2C, fed with the bytes the firmware sends through
 * I2C1.writeTo. It decodes the controller's own protocol (control byte, command stream, data
 * stream) into display RAM, so the desktop shows what the panel would show, driver bugs included,
 * rather than peeking at the firmware's Graphics buffer.
 *
 * What is modelled: control bytes (Co and D/C bits), page / horizontal / vertical addressing
 * (0x20, 0x21, 0x22, 0xB0-0xB7, 0x00-0x1F), display on/off (0xAE/0xAF), inverse (0xA6/0xA7),
 * entire-display-on (0xA4/0xA5), segment remap (0xA0/0xA1), COM scan direction (0xC0/0xC8), display
 * start line (0x40-0x7F) and display offset (0xD3). Other commands are consumed with their argument
 * bytes and otherwise ignored (contrast, clocks, charge pump, scrolling).
 */

export const OLED_WIDTH = 128;
export const OLED_HEIGHT = 64;
const PAGES = OLED_HEIGHT / 8;

/** Number of argument bytes that follow each multi-byte command. */
const ARGUMENT_COUNT: { [command: number]: number } = {
  0x20: 1, // memory addressing mode
  0x21: 2, // column address range
  0x22: 2, // page address range
  0x26: 6, // right horizontal scroll
  0x27: 6, // left horizontal scroll
  0x29: 5, // vertical and right scroll
  0x2a: 5, // vertical and left scroll
  0x81: 1, // contrast
  0x8d: 1, // charge pump
  0xa3: 2, // vertical scroll area
  0xa8: 1, // multiplex ratio
  0xd3: 1, // display offset
  0xd5: 1, // clock divide
  0xd9: 1, // pre-charge period
  0xda: 1, // COM pins configuration
  0xdb: 1, // VCOMH deselect level
};

export class Ssd1306 {
  /** Display RAM: PAGES rows of 128 column bytes, bit 0 the top pixel of the page. */
  readonly ram = new Uint8Array(OLED_WIDTH * PAGES);
  displayOn = false;
  inverse = false;
  allOn = false;
  segmentRemap = false;
  comScanReversed = false;
  startLine = 0;
  displayOffset = 0;
  /** Bumped on every data byte and every command that changes the picture; the renderer polls it. */
  revision = 0;

  private mode = 2; // page addressing after reset
  private colStart = 0;
  private colEnd = OLED_WIDTH - 1;
  private pageStart = 0;
  private pageEnd = PAGES - 1;
  private col = 0;
  private page = 0;
  private pending: number[] = []; // a multi-byte command being collected

  /** One I2C transaction to the panel's address: a control byte, then commands or data. */
  receive(bytes: ArrayLike<number>): void {
    let i = 0;
    while (i < bytes.length) {
      const control = (bytes[i] as number) & 0xff;
      i++;
      const isData = (control & 0x40) !== 0;
      const continuation = (control & 0x80) !== 0;
      if (continuation) {
        // Co = 1: exactly one byte follows, then another control byte.
        if (i < bytes.length) this.byte((bytes[i] as number) & 0xff, isData);
        i++;
      } else {
        // Co = 0: the rest of the transaction is one stream.
        for (; i < bytes.length; i++) this.byte((bytes[i] as number) & 0xff, isData);
      }
    }
  }

  /**
   * The pixel the viewer sees at (x, y), 0 or 1: display RAM mapped through the remap, scan
   * direction, start line and offset, then inverse / all-on / off. The mapping follows the usual
   * 128x64 module wiring, on which 0xA1 and 0xC8 give an upright picture.
   */
  visiblePixel(x: number, y: number): number {
    if (!this.displayOn) return 0;
    if (this.allOn) return 1;
    const column = this.segmentRemap ? x : OLED_WIDTH - 1 - x;
    const com = this.comScanReversed ? y : OLED_HEIGHT - 1 - y;
    const row = (com + this.startLine + this.displayOffset) % OLED_HEIGHT;
    const bit = ((this.ram[(row >> 3) * OLED_WIDTH + column] as number) >> (row & 7)) & 1;
    return this.inverse ? bit ^ 1 : bit;
  }

  private byte(value: number, isData: boolean): void {
    if (isData) this.data(value);
    else this.command(value);
  }

  private data(value: number): void {
    this.ram[this.page * OLED_WIDTH + this.col] = value;
    this.revision++;
    if (this.mode === 0) {
      // horizontal: along the column range, then to the next page in the page range
      if (this.col >= this.colEnd) {
        this.col = this.colStart;
        this.page = this.page >= this.pageEnd ? this.pageStart : this.page + 1;
      } else this.col++;
    } else if (this.mode === 1) {
      // vertical: down the page range, then to the next column
      if (this.page >= this.pageEnd) {
        this.page = this.pageStart;
        this.col = this.col >= this.colEnd ? this.colStart : this.col + 1;
      } else this.page++;
    } else if (this.col < OLED_WIDTH - 1) {
      this.col++; // page mode: stays on the page, stops at the last column
    }
  }

  private command(value: number): void {
    if (this.pending.length > 0) {
      this.pending.push(value);
      const head = this.pending[0] as number;
      if (this.pending.length - 1 === ARGUMENT_COUNT[head]) {
        const args = this.pending.slice(1);
        this.pending = [];
        this.withArguments(head, args);
      }
      return;
    }
    if (ARGUMENT_COUNT[value] !== undefined) {
      this.pending = [value];
      return;
    }
    this.single(value);
  }

  private withArguments(command: number, args: number[]): void {
    const a = args[0] as number;
    const b = args[1] as number;
    if (command === 0x20) this.mode = a & 3;
    else if (command === 0x21) {
      this.colStart = a & 0x7f;
      this.colEnd = b & 0x7f;
      this.col = this.colStart;
    } else if (command === 0x22) {
      this.pageStart = a & 7;
      this.pageEnd = b & 7;
      this.page = this.pageStart;
    } else if (command === 0xd3) {
      this.displayOffset = a & 0x3f;
      this.revision++;
    }
  }

  private single(value: number): void {
    if (value <= 0x0f) this.col = (this.col & 0xf0) | value;
    else if (value <= 0x1f) this.col = ((value & 0x07) << 4) | (this.col & 0x0f);
    else if (value >= 0x40 && value <= 0x7f) this.startLine = value & 0x3f;
    else if (value >= 0xb0 && value <= 0xb7) this.page = value & 7;
    else if (value === 0xae || value === 0xaf) this.displayOn = value === 0xaf;
    else if (value === 0xa6 || value === 0xa7) this.inverse = value === 0xa7;
    else if (value === 0xa4 || value === 0xa5) this.allOn = value === 0xa5;
    else if (value === 0xa0 || value === 0xa1) this.segmentRemap = value === 0xa1;
    else if (value === 0xc0 || value === 0xc8) this.comScanReversed = value === 0xc8;
    else return; // scroll on/off, nop and the rest: no effect on the picture here
    this.revision++;
  }
}
