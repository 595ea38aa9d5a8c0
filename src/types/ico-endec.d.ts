/** ico-endec ships no types: the two calls this project uses. */
declare module 'ico-endec' {
  export interface IconEntry {
    width: number;
    height: number;
    bitsPerPixel: number;
    imageType: 'png' | 'bmp';
    imageData: Buffer;
  }
  /** A CommonJS module: import the default. */
  const icoEndec: {
    /** An ICO file holding the given PNG (or BMP) images. */
    encode(images: Array<Buffer | ArrayBuffer>): Buffer;
    decode(ico: Buffer | ArrayBuffer): IconEntry[];
  };
  export default icoEndec;
}
