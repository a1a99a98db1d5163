import { CUT_IN } from '../../shared/interviews/live';

/**
 * A live interview's conversation in the browser (docs/live-interviews.md), served as a file (the CSP allows no
 * inline script). It checks the microphone with a level meter, then asks the page for a ticket and opens the
 * conversation's socket: the microphone goes out as 16-bit PCM at 24 kHz, the interviewer's voice comes back
 * the same way and is played in order, and both sides' captions are shown. The candidate's voice over the
 * interviewer's brings it down at once and, held (CUT_IN), stops it: the server is told how much of the reply
 * played, and keeps no more of it. A dropped socket reconnects with a
 * new ticket ("Reconnecting…"); the server resumes at the same question. The AudioContext is made and resumed
 * in the button's click, as mobile Safari requires for any sound.
 */
export const LIVE_SCRIPT = `(function () {
  var CUT = ${JSON.stringify(CUT_IN)};
  var root = document.querySelector('.live');
  if (!root) return;
  var RATE = 24000;
  function part(role) { return root.querySelector('[data-role=' + role + ']'); }
  function button(action) { return root.querySelector('[data-action=' + action + ']'); }
  function say(text) { part('status').textContent = text; }
  var AC = window.AudioContext || window.webkitAudioContext;
  if (!AC || !window.WebSocket || !navigator.mediaDevices || !navigator.mediaDevices.getUserMedia) {
    button('check').hidden = true;
    say('This browser cannot hold the conversation. Please answer in writing instead.');
    return;
  }
  say('Press "Check my microphone" to begin.');
  var audio = null, voice = null, socket = null, sending = false, ended = false, heardMs = 0, tries = 0, playAt = 0, playing = [], question = 0;
  // The replies in the page's queue, by the number their "asking" state gave them, each with when it begins on the
  // audio clock; the latest reply the server asked for; whether the candidate cut them off, how long they have
  // spoken over them; the interviewer's captions by reply, for a cut to shorten.
  var queue = [], asked = null, cutOff = false, overMs = 0, saidOf = {};
  // What the candidate waits for, on the audio clock: from Start to the greeting, from the end of an answer to the reply.
  var startAt = null, greeted = false, answeredAt = null;

  function downsample(input, from) {
    var ratio = from / RATE, n = Math.floor(input.length / ratio), out = new Int16Array(n);
    for (var i = 0; i < n; i++) {
      var s = input[Math.floor(i * ratio)];
      out[i] = s < 0 ? Math.max(-1, s) * 0x8000 : Math.min(1, s) * 0x7fff;
    }
    return out.buffer;
  }
  function play(buffer) {
    var pcm = new Int16Array(buffer);
    if (!pcm.length || cutOff) return;
    var sound = audio.createBuffer(1, pcm.length, RATE), data = sound.getChannelData(0);
    for (var i = 0; i < pcm.length; i++) data[i] = pcm[i] / 0x8000;
    var source = audio.createBufferSource();
    source.buffer = sound;
    source.connect(voice);
    var at = Math.max(audio.currentTime, playAt);
    while (queue.length > 1 && queue[1].at <= audio.currentTime) queue.shift();
    if (!queue.length || queue[queue.length - 1].n !== asked) {
      queue.push({ n: asked, at: at });
      if (!greeted && startAt !== null) {
        greeted = true;
        control({ type: 'first_sound', after: 'start', ms: Math.round((at - startAt) * 1000) });
      } else if (answeredAt !== null) control({ type: 'first_sound', after: 'answer', ms: Math.round((at - answeredAt) * 1000) });
      answeredAt = null;
    }
    source.start(at);
    playAt = at + sound.duration;
    playing.push(source);
    source.onended = function () { playing.splice(playing.indexOf(source), 1); };
  }
  function hush() {
    playing.forEach(function (s) { try { s.stop(); } catch (e) {} });
    playing = [];
    playAt = 0;
    queue = [];
  }
  function duck(down) { voice.gain.setTargetAtTime(down ? CUT.duckGain : 1, audio.currentTime, 0.01); }
  // The candidate's voice over the interviewer's, frame by frame: down at once, stopped once held, back up after a noise.
  function judge(rms, ms) {
    var over = queue.length > 0 && !cutOff && playAt > audio.currentTime;
    if (!over) {
      if (overMs > 0) { overMs = 0; duck(false); }
      return;
    }
    if (rms >= CUT.rms) {
      if (overMs === 0) duck(true);
      overMs += ms;
      if (overMs < CUT.stopAfterMs) return;
      // The reply heard now, how far in, and every reply queued after it up to the latest asked: none of them plays.
      var now = queue.filter(function (r) { return r.at <= audio.currentTime; }).pop() || queue[0];
      var cut = { type: 'played', ms: Math.max(0, Math.round((audio.currentTime - now.at) * 1000)) };
      if (now.n) { cut.reply = now.n; cut.through = Math.max(now.n, asked || now.n); }
      hush();
      cutOff = true;
      overMs = 0;
      duck(false);
      control(cut);
    } else if (overMs > 0) {
      overMs = Math.max(0, overMs - ms);
      if (overMs === 0) { duck(false); control({ type: 'noise' }); }
    }
  }
  // Each side's caption under way, grown by its partial captions and closed by its final one.
  var open = { interviewer: null, candidate: null };
  function caption(who, text, partial, reply) {
    var said = open[who];
    if (!said) {
      var item = document.createElement('li');
      var name = document.createElement('strong');
      name.textContent = who === 'interviewer' ? 'Interviewer: ' : 'You: ';
      item.appendChild(name);
      said = document.createTextNode('');
      item.appendChild(said);
      part('captions').appendChild(item);
    }
    said.textContent = text || '…';
    open[who] = partial ? said : null;
    if (who === 'interviewer' && reply) saidOf[reply] = said;
  }
  var STATES = { asking: 'The interviewer is speaking.', listening: 'Listening. Answer when you are ready.', thinking: 'One moment…' };

  button('check').addEventListener('click', function () {
    audio = audio || new AC();
    audio.resume();
    if (!voice) { voice = audio.createGain(); voice.connect(audio.destination); }
    navigator.mediaDevices.getUserMedia({ audio: { echoCancellation: true, noiseSuppression: true } }).then(function (stream) {
      var source = audio.createMediaStreamSource(stream);
      function frame(input) {
        var sum = 0;
        for (var i = 0; i < input.length; i++) sum += input[i] * input[i];
        var rms = Math.sqrt(sum / input.length), ms = (input.length / audio.sampleRate) * 1000;
        part('level').value = Math.min(1, rms * 5);
        if (rms > 0.01) heardMs += ms;
        if (heardMs > 300 && !sending && button('begin').hidden) {
          button('begin').hidden = false;
          say('We can hear you. Start the conversation when you are ready.');
        }
        if (sending && socket && socket.readyState === 1) {
          socket.send(downsample(input, audio.sampleRate));
          judge(rms, ms);
        }
      }
      // 20 ms frames from a worklet; where there is none, what a ScriptProcessorNode gives (85 ms at 48 kHz).
      function processor() {
        var node = audio.createScriptProcessor(4096, 1, 1);
        source.connect(node);
        node.connect(audio.destination);
        node.onaudioprocess = function (e) { frame(e.inputBuffer.getChannelData(0)); };
      }
      if (audio.audioWorklet && window.AudioWorkletNode)
        audio.audioWorklet.addModule(root.getAttribute('data-capture')).then(function () {
          var node = new AudioWorkletNode(audio, 'live-capture');
          node.port.onmessage = function (e) { frame(e.data); };
          var sink = audio.createGain();
          sink.gain.value = 0;
          source.connect(node);
          node.connect(sink);
          sink.connect(audio.destination);
        }, processor);
      else processor();
      button('check').hidden = true;
      say('Say a few words: the bar should move.');
      setTimeout(function () {
        if (heardMs <= 300 && !sending) say('We cannot hear your microphone. Check that it is on and not muted, or answer in writing instead.');
      }, 8000);
    }, function (err) {
      button('check').hidden = true;
      say(err && err.name === 'NotAllowedError'
        ? 'The microphone was not allowed. You can allow it in your browser settings and reload, or answer in writing instead.'
        : 'No microphone was found. You can answer in writing instead.');
    });
  });
  button('begin').addEventListener('click', function () {
    part('check').hidden = true;
    part('talk').hidden = false;
    sending = true;
    startAt = audio.currentTime;
    connect();
  });
  function control(message) { if (socket && socket.readyState === 1) socket.send(JSON.stringify(message)); }
  // "I'm done" names the question it is for: a press the server gets after that question closed is not applied to the next.
  button('done').addEventListener('click', function () { control({ type: 'done', question_index: question }); });
  button('repeat').addEventListener('click', function () { control({ type: 'repeat' }); });

  function retry() {
    if (ended) return;
    say('Reconnecting…');
    tries++;
    setTimeout(connect, Math.min(8000, 250 * Math.pow(2, tries)));
  }
  function connect() {
    fetch(root.getAttribute('data-ticket'), { method: 'POST', credentials: 'same-origin' }).then(function (res) {
      if (res.status === 409) { ended = true; location.reload(); return; }
      if (!res.ok) return retry();
      return res.json().then(function (t) {
        socket = new WebSocket((location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + t.socket_path + '?ticket=' + encodeURIComponent(t.ticket));
        socket.binaryType = 'arraybuffer';
        socket.onopen = function () { tries = 0; };
        socket.onmessage = function (e) {
          if (typeof e.data !== 'string') return play(e.data);
          var m = JSON.parse(e.data);
          if (m.type === 'state') {
            question = m.question_index;
            part('number').textContent = String(m.question_index + 1);
            // A new reply: it begins with its first audio, after those queued before it, and the candidate may cut into it.
            if (m.state === 'asking') { asked = m.reply || null; cutOff = false; }
            if (m.state === 'thinking') answeredAt = audio.currentTime;
            say(STATES[m.state] || '');
          } else if (m.type === 'caption') {
            if (m.cut) { if (saidOf[m.reply]) saidOf[m.reply].textContent = m.text; }
            else caption(m.who, m.text, m.partial, m.reply);
          }
          else if (m.type === 'ended') {
            ended = true;
            sending = false;
            if (m.reason === 'taken_over') say('This interview went on in another tab or window.');
            else if (m.reason === 'unavailable') say('The interviewer cannot be reached right now. Please reload this page in a few minutes, or answer in writing instead.');
            else location.reload();
          }
        };
        socket.onclose = function () { if (!ended) retry(); };
      });
    }, retry);
  }
})();
`;
