/**
 * The live interview's microphone capture (web/assets/live.ts), an AudioWorklet module served as a file (the
 * CSP allows no inline script): it posts the microphone's samples in 20 ms frames, at the context's own rate,
 * to the page, which sends them on and judges a cut-in from them. A ScriptProcessorNode, the fallback where no
 * worklet exists, can only give 4,096 samples at a time (85 ms at 48 kHz): every reply waited for that much.
 */
export const LIVE_CAPTURE_SCRIPT = `class LiveCapture extends AudioWorkletProcessor {
  constructor() {
    super();
    this.frame = new Float32Array(Math.round(sampleRate / 50));
    this.filled = 0;
  }
  process(inputs) {
    var input = inputs[0] && inputs[0][0];
    if (!input) return true;
    for (var i = 0; i < input.length; i++) {
      this.frame[this.filled++] = input[i];
      if (this.filled === this.frame.length) {
        this.port.postMessage(this.frame);
        this.frame = new Float32Array(this.frame.length);
        this.filled = 0;
      }
    }
    return true;
  }
}
registerProcessor('live-capture', LiveCapture);
`;
