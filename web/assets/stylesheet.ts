/**
 * The pages' one stylesheet, kept as a module so the build ships it with the code. Phone first: one column,
 * no fixed widths, so nothing scrolls sideways on a 390 px screen. Colours pass WCAG AA contrast.
 */
export const STYLESHEET = `
*, *::before, *::after { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body {
  margin: 0;
  font: 16px/1.55 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
  color: #1b1f24;
  background: #f6f7f9;
}
main { max-width: 46rem; margin: 0 auto; padding: 1.25rem 1rem 3rem; }
h1 { font-size: 1.6rem; line-height: 1.25; margin: 0.5rem 0 0.75rem; overflow-wrap: anywhere; }
h2 { font-size: 1.15rem; margin: 1.75rem 0 0.5rem; }
.card > h2:first-child { margin-top: 0; }
p, li, dd { overflow-wrap: anywhere; }
a { color: #0b57d0; }
.lede { color: #444b55; margin-top: 0; }
.card { background: #fff; border: 1px solid #d9dde3; border-radius: 0.6rem; padding: 1rem 1.1rem; margin: 1rem 0; }
.facts { display: grid; grid-template-columns: max-content 1fr; gap: 0.35rem 1rem; margin: 0; }
.facts dt { color: #444b55; }
.facts dd { margin: 0; }
.tags { list-style: none; padding: 0; margin: 0; display: flex; flex-wrap: wrap; gap: 0.4rem; }
.tags li { background: #e8eefc; color: #123a85; border-radius: 1rem; padding: 0.15rem 0.7rem; }
.description p { white-space: pre-line; }
.questions { margin: 0.5rem 0 0; padding-left: 1.4rem; }
label { display: block; font-weight: 600; margin: 1rem 0 0.35rem; }
textarea {
  display: block; width: 100%; min-height: 10rem; padding: 0.6rem 0.7rem;
  font: inherit; color: inherit; border: 1px solid #8a929c; border-radius: 0.4rem; background: #fff;
}
button {
  margin-top: 1rem; padding: 0.7rem 1.3rem; font: inherit; font-weight: 600;
  color: #fff; background: #0b57d0; border: 0; border-radius: 0.5rem; cursor: pointer;
}
button:hover { background: #0842a0; }
:focus-visible { outline: 3px solid #f4b400; outline-offset: 2px; }
.timer { font-variant-numeric: tabular-nums; color: #444b55; }
.hint { color: #444b55; }
.notice { background: #fff4ce; border: 1px solid #e0c45c; border-radius: 0.5rem; padding: 0.6rem 0.8rem; }
.error { color: #a50e0e; font-weight: 600; }
input[type="password"], input[type="text"] {
  display: block; width: 100%; padding: 0.6rem 0.7rem; font: inherit;
  border: 1px solid #8a929c; border-radius: 0.4rem; background: #fff;
}
code { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 0.95em; }
.bar {
  display: flex; flex-wrap: wrap; align-items: center; justify-content: space-between; gap: 0.5rem;
  padding: 0.5rem 1rem; background: #fff; border-bottom: 1px solid #d9dde3;
}
.bar nav { display: flex; flex-wrap: wrap; gap: 1rem; align-items: baseline; }
.bar .who { color: #444b55; }
.bar form button { margin: 0; }
button.quiet { padding: 0.4rem 0.8rem; color: #0b57d0; background: transparent; border: 1px solid #0b57d0; }
button.quiet:hover { background: #e8eefc; }
.rows { list-style: none; padding: 0; margin: 1rem 0; }
.rows h2 { margin-top: 0; }
.tags a { color: inherit; text-decoration: none; }
.tags a[aria-current="page"] { font-weight: 700; text-decoration: underline; }
details { margin-top: 0.75rem; }
summary { cursor: pointer; color: #0b57d0; }
.answers .question { font-weight: 600; margin-bottom: 0.2rem; }
.score { border-left: 3px solid #cbd2d9; padding-left: 0.6rem; margin-top: 0.4rem; }
.score p, .evidence { margin: 0.2rem 0; }
.flag { color: #8a4b00; font-weight: 600; }
.heard { color: #52606d; }
.live meter { display: block; width: 100%; height: 1.5rem; }
.captions { list-style: none; padding: 0; max-height: 50vh; overflow-y: auto; }
.captions li { margin: 0.4rem 0; }
.recorder { border-bottom: 1px solid #d9dde3; padding-bottom: 1rem; margin-bottom: 0.5rem; }
.recorder video, .recorder audio, .answers video, .answers audio { display: block; width: 100%; margin-top: 0.5rem; }
.actions { display: flex; flex-wrap: wrap; gap: 0.5rem; }
.actions button { margin-top: 0.5rem; }
/* A box or a choice beside its label, which wraps under itself on a phone. */
.check, label.choice { display: flex; align-items: flex-start; gap: 0.6rem; }
.check label, label.choice { margin: 0.4rem 0; }
label.choice { font-weight: 400; }
.check input, label.choice input { flex: none; width: 1.25rem; height: 1.25rem; margin: 0.45rem 0 0; }
fieldset { border: 1px solid #d9dde3; border-radius: 0.4rem; margin: 0.75rem 0 0; padding: 0.4rem 0.8rem; }
legend { font-weight: 600; padding: 0 0.3rem; }
.review { border-top: 1px solid #d9dde3; margin-top: 1rem; }
.review h3 { margin-bottom: 0.3rem; }
.review .note { display: block; margin-top: 0.3rem; color: #444b55; }
.review textarea { min-height: 5rem; }
[hidden] { display: none !important; }
`;
