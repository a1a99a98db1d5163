/**
 * The recorded answer's script, served as a file (the CSP allows no inline script). It records with
 * MediaRecorder, plays the take back, and uploads it; the server decides whether it is in time and takes it.
 * Without MediaRecorder the recorder stays hidden, and without a microphone or camera it says so: the typed
 * answer below it is always there. Plain ES5 so any phone runs it.
 */
export const RECORDER_SCRIPT = `(function () {
  var root = document.querySelector('.recorder');
  if (!root || !window.MediaRecorder || !navigator.mediaDevices || !navigator.mediaDevices.getUserMedia) return;
  root.hidden = false;
  var kind = root.getAttribute('data-kind');
  var device = kind === 'video' ? 'camera' : 'microphone';
  var status = root.querySelector('[data-role=status]');
  var preview = root.querySelector('[data-role=preview]');
  function button(action) { return root.querySelector('[data-action=' + action + ']'); }
  function only(actions) {
    ['record', 'stop', 'upload', 'again'].forEach(function (a) { button(a).hidden = actions.indexOf(a) < 0; });
  }
  function say(text) { status.textContent = text; }
  function supported() {
    var types = kind === 'video'
      ? ['video/webm;codecs=vp8,opus', 'video/webm', 'video/mp4']
      : ['audio/webm;codecs=opus', 'audio/webm', 'audio/ogg;codecs=opus', 'audio/mp4'];
    for (var i = 0; i < types.length; i++) if (MediaRecorder.isTypeSupported(types[i])) return types[i];
    return '';
  }
  var recorder = null, take = null, startedAt = 0, seconds = 0;

  button('record').addEventListener('click', function () {
    navigator.mediaDevices.getUserMedia(kind === 'video' ? { audio: true, video: true } : { audio: true }).then(function (stream) {
      var parts = [];
      var type = supported();
      recorder = type ? new MediaRecorder(stream, { mimeType: type }) : new MediaRecorder(stream);
      recorder.addEventListener('dataavailable', function (e) { if (e.data && e.data.size > 0) parts.push(e.data); });
      recorder.addEventListener('stop', function () {
        stream.getTracks().forEach(function (t) { t.stop(); });
        seconds = (Date.now() - startedAt) / 1000;
        take = new Blob(parts, { type: recorder.mimeType || type });
        preview.srcObject = null;
        preview.muted = false;
        preview.src = URL.createObjectURL(take);
        preview.hidden = false;
        only(['upload', 'again']);
        say('Play your answer back if you like, then submit it, or record it again.');
      });
      recorder.start(1000);
      startedAt = Date.now();
      if (kind === 'video') {
        preview.srcObject = stream;
        preview.muted = true;
        preview.hidden = false;
        preview.play();
      } else {
        preview.hidden = true;
      }
      only(['stop']);
      say('Recording. Press Stop when you have finished.');
    }, function (err) {
      only([]);
      say(err && err.name === 'NotAllowedError'
        ? 'This page was not allowed to use your ' + device + '. Type your answer below instead.'
        : 'No ' + device + ' could be used. Type your answer below instead.');
    });
  });

  button('stop').addEventListener('click', function () { if (recorder && recorder.state !== 'inactive') recorder.stop(); });

  button('again').addEventListener('click', function () {
    take = null;
    preview.hidden = true;
    button('record').click();
  });

  button('upload').addEventListener('click', function () {
    if (!take) return;
    var upload = button('upload');
    upload.disabled = true;
    say('Uploading your answer…');
    fetch(root.getAttribute('data-upload') + '?duration=' + seconds.toFixed(1), {
      method: 'POST',
      headers: { 'Content-Type': take.type },
      body: take,
      credentials: 'same-origin'
    }).then(function (res) {
      return res.json().then(function (body) { return body; }, function () { return { message: 'The upload failed (' + res.status + '). Please submit it again.' }; });
    }).then(function (body) {
      if (body.next) { window.location.assign(body.next); return; }
      say(body.message);
      upload.disabled = false;
    }, function () {
      say('The upload failed: check your connection and submit it again.');
      upload.disabled = false;
    });
  });
})();
`;
