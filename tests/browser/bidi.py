"""A small WebDriver BiDi client for headless Firefox, for the tests.

Firefox (129 and later) speaks WebDriver BiDi itself over a websocket
when started with --remote-debugging-port, so no geckodriver is needed
(Debian has none). This drives one browser: open a file:// page, run a
script in it and get its JSON-able result, and keep what the page logs
at level "error" (uncaught exceptions and console.error). The protocol:
https://w3c.github.io/webdriver-bidi/ (session.new, session.subscribe,
browsingContext.getTree and .navigate, script.evaluate, log.entryAdded,
browser.close). Uses Debian's python3-websocket.
"""
import json
import os
import re
import shutil
import subprocess
import tempfile
import time

import websocket


class Firefox:
    def __init__(self, binary, timeout=60):
        self.profile = tempfile.mkdtemp(prefix='cganalyze-firefox-')
        self.stderr = open(os.path.join(self.profile, 'stderr.log'), 'w+')
        # port 0: Firefox picks a free port and says which on stderr
        self.proc = subprocess.Popen(
            [binary, '--headless', '--no-remote', '--profile', self.profile,
             '--remote-debugging-port=0', 'about:blank'],
            stdout=subprocess.DEVNULL, stderr=self.stderr)
        self.timeout = timeout
        self.errors = []
        self.last = 0
        self.ws = None
        try:
            self._connect()
        except Exception:
            self.quit()
            raise

    def _connect(self):
        url = None
        deadline = time.time() + self.timeout
        while not url:
            if self.proc.poll() is not None or time.time() > deadline:
                raise RuntimeError('firefox did not start WebDriver BiDi: '
                                   + self.log())
            time.sleep(0.1)
            m = re.search(r'WebDriver BiDi listening on (ws://\S+)', self.log())
            url = m.group(1) if m else None
        # Firefox refuses a websocket whose request has an Origin header
        self.ws = websocket.create_connection(url + '/session',
                                              timeout=self.timeout,
                                              suppress_origin=True)
        self.command('session.new', {'capabilities': {}})
        self.command('session.subscribe', {'events': ['log.entryAdded']})
        tree = self.command('browsingContext.getTree', {})
        self.context = tree['contexts'][0]['context']

    def log(self):
        self.stderr.seek(0)
        return self.stderr.read()

    def command(self, method, params):
        """Send a command; keep the events that come before its answer."""
        self.last += 1
        self.ws.send(json.dumps({'id': self.last, 'method': method,
                                 'params': params}))
        while True:
            msg = json.loads(self.ws.recv())
            if msg.get('type') == 'event':
                self._event(msg)
            elif msg.get('id') == self.last:
                if msg.get('type') == 'error':
                    raise RuntimeError('%s: %s: %s' % (method, msg.get('error'),
                                                       msg.get('message')))
                return msg['result']

    def _event(self, msg):
        p = msg.get('params', {})
        if msg.get('method') == 'log.entryAdded' and p.get('level') == 'error':
            self.errors.append(p.get('text'))

    def open(self, path):
        self.command('browsingContext.navigate', {
            'context': self.context, 'wait': 'complete',
            'url': 'file://' + os.path.abspath(path)})

    def js(self, expression):
        """The value of a script (an expression, or a promise of one):
        it is passed through JSON, so it must be JSON-able."""
        got = self.command('script.evaluate', {
            'expression': '(async () => JSON.stringify(await (%s)))()'
                          % expression,
            'target': {'context': self.context}, 'awaitPromise': True})
        if got.get('type') == 'exception':
            raise RuntimeError('script failed: %s'
                               % got['exceptionDetails'].get('text'))
        value = got['result'].get('value')
        return None if value is None else json.loads(value)

    def keys(self, *keys):
        """Keys pressed and released in turn on the page, as a user
        types them (WebDriver's codes: '\\ue015' the down arrow...)."""
        acts = []
        for k in keys:
            acts += [{'type': 'keyDown', 'value': k}, {'type': 'keyUp', 'value': k}]
        self.command('input.performActions', {
            'context': self.context,
            'actions': [{'type': 'key', 'id': 'keyboard', 'actions': acts}]})

    def quit(self):
        try:
            if self.ws:
                self.command('browser.close', {})
        except Exception:
            pass
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.stderr.close()
        shutil.rmtree(self.profile, ignore_errors=True)
