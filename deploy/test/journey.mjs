// The journey deploy/test/run.sh runs through nginx once it has started nginx and the two
// instances: HTTPS only, secure cookies and HSTS, the client's real address in the app's log, a
// session made on one instance used on the other, the photo-ID body size, and an instance stopped
// while the other carries on. Plain node:https with the test's own certificate as the only CA.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';

const env = (name) => {
  const value = process.env[name];
  if (!value) throw new Error(`journey.mjs needs ${name} (deploy/test/run.sh sets it)`);
  return value;
};
const httpsOrigin = env('JOURNEY_HTTPS_ORIGIN'); // https://localhost:8443
const httpOrigin = env('JOURNEY_HTTP_ORIGIN'); // http://localhost:8080
const ca = fs.readFileSync(env('JOURNEY_CA_FILE'));
const nginxLog = env('JOURNEY_NGINX_ACCESS_LOG');
const instances = ['A', 'B'].map((name) => ({
  name,
  origin: env(`JOURNEY_INSTANCE_${name}`), // http://127.0.0.1:4841
  pid: Number(env(`JOURNEY_PID_${name}`)),
  log: env(`JOURNEY_LOG_${name}`),
}));

const step = (text) => console.log(`  ✓ ${text}`);

/** One request; the answer with its raw headers, so a header sent twice shows twice. */
function send(url, { method = 'GET', headers = {}, body, localAddress, expectContinue } = {}) {
  const target = new URL(url);
  const client = target.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    let tlsVersion;
    const request = client.request(
      target,
      {
        method,
        headers: { ...headers, ...(body ? { 'content-length': body.length } : {}) },
        ...(target.protocol === 'https:' ? { ca, servername: target.hostname } : {}),
        ...(localAddress ? { localAddress, family: 4 } : {}),
        agent: false,
      },
      (response) => {
        const chunks = [];
        response.on('data', (chunk) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => {
          const raw = [];
          for (let i = 0; i < response.rawHeaders.length; i += 2)
            raw.push([response.rawHeaders[i].toLowerCase(), response.rawHeaders[i + 1]]);
          resolve({
            status: response.statusCode,
            headers: response.headers,
            all: (name) => raw.filter(([key]) => key === name).map(([, value]) => value),
            text: Buffer.concat(chunks).toString('utf8'),
            tls: target.protocol === 'https:' ? tlsVersion : undefined,
          });
        });
      },
    );
    request.on('socket', (socket) => {
      socket.on('secureConnect', () => (tlsVersion = socket.getProtocol()));
    });
    request.on('error', reject);
    if (body && expectContinue) {
      // Only if nginx says go on: a body it refuses up front is never sent.
      request.setHeader('expect', '100-continue');
      request.on('continue', () => request.end(body));
      request.flushHeaders();
    } else request.end(body);
  });
}

const json = (answer) => {
  try {
    return JSON.parse(answer.text);
  } catch {
    throw new Error(`expected JSON, got ${answer.status}: ${answer.text.slice(0, 200)}`);
  }
};

/** What a browser's fetch from our own page sends with a call. */
const call = (path, body, cookie, extra = {}) =>
  send(`${httpsOrigin}/lapi${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      origin: httpsOrigin,
      ...(cookie ? { cookie } : {}),
      ...extra,
    },
    body: Buffer.from(JSON.stringify(body)),
  });

const logLines = (file) =>
  fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line));

/** Polls until `find` returns something (a log line is written just after its answer is sent). */
async function eventually(what, find, timeoutMs = 5000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await find();
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The instance whose log has the request's line, and the line. */
const servedBy = (requestId) =>
  eventually(`the app's log line for request ${requestId}`, () => {
    for (const instance of instances) {
      const line = logLines(instance.log).find(
        (entry) => entry.msg === 'request completed' && entry.req?.id === requestId,
      );
      if (line) return { instance, line };
    }
    return undefined;
  });

// --- 1. HTTP is only a redirect to HTTPS --------------------------------------------------------

const plain = await send(`${httpOrigin}/shop?ref=deploy-test`);
assert.equal(plain.status, 301);
assert.equal(plain.headers.location, `${httpsOrigin}/shop?ref=deploy-test`);
step(`HTTP answers 301 to ${plain.headers.location}`);

// --- 2. HTTPS with the test's certificate, HSTS once -------------------------------------------

const home = await send(`${httpsOrigin}/`);
assert.equal(home.status, 200);
assert.match(home.headers['content-type'], /^text\/html/);
assert.ok(['TLSv1.2', 'TLSv1.3'].includes(home.tls), `TLS version ${home.tls}`);
const hsts = home.all('strict-transport-security');
assert.equal(hsts.length, 1, `one Strict-Transport-Security header, got ${JSON.stringify(hsts)}`);
const maxAge = Number(/max-age=(\d+)/.exec(hsts[0])?.[1]);
assert.ok(maxAge >= 31536000, `HSTS max-age of a year or more, got ${hsts[0]}`);
assert.equal(home.headers.server, 'nginx', 'nginx names no version (server_tokens off)');
step(`HTTPS (${home.tls}, verified against the test's own CA) with one HSTS header: ${hsts[0]}`);

// --- 3. Sign up, then log in through nginx: __Host- cookies, Secure and HttpOnly ---------------

const email = `deploy-${crypto.randomBytes(4).toString('hex')}@pairwell.example`;
const password = `Deploy-${crypto.randomBytes(12).toString('base64url')}`;
const signup = await call('/account/create/', {
  email,
  first_name: 'Robin',
  last_name: 'Deploy',
  password,
  dob: '04/12/1986',
  phoneNo: '(503) 555-0142',
  consent: true,
});
assert.equal(signup.status, 200, signup.text);

const login = await call('/account/login/', { email, password });
assert.equal(login.status, 200, login.text);
assert.equal(json(login).data.user.email, email);
const setCookies = login.all('set-cookie');
const session = setCookies.find((line) => line.startsWith('__Host-pw_session='));
assert.ok(session, `a __Host-pw_session cookie, got ${JSON.stringify(setCookies)}`);
for (const line of setCookies) {
  const attributes = line
    .split(';')
    .slice(1)
    .map((part) => part.trim().toLowerCase());
  for (const wanted of ['secure', 'httponly', 'path=/'])
    assert.ok(attributes.includes(wanted), `${line.split('=')[0]} has ${wanted}: ${line}`);
  assert.ok(
    attributes.includes('samesite=lax') || attributes.includes('samesite=strict'),
    `${line.split('=')[0]} has SameSite=Lax or Strict: ${line}`,
  );
  assert.ok(
    !attributes.some((part) => part.startsWith('domain=')),
    'no Domain on a __Host- cookie',
  );
}
const cookie = setCookies.map((line) => line.split(';')[0]).join('; ');
const sessionToken = session.split(';')[0].split('=')[1];
const { instance: loggedInOn } = await servedBy(login.headers['x-request-id']);
const other = instances.find((instance) => instance !== loggedInOn);
step(
  `log-in through nginx on instance ${loggedInOn.name}: ${setCookies.map((line) => line.split('=')[0]).join(', ')}, each __Host-, Secure, HttpOnly, SameSite, Path=/`,
);

// --- 4. That session on the other instance ------------------------------------------------------

const elsewhere = await send(`${other.origin}/lapi/account/verifyauthentication/`, {
  method: 'POST',
  headers: { 'content-type': 'application/json', cookie },
  body: Buffer.from('{}'),
});
assert.equal(elsewhere.status, 200, elsewhere.text);
assert.deepEqual(
  { authenticated: json(elsewhere).data.authenticated, email: json(elsewhere).data.user?.email },
  { authenticated: true, email },
);
assert.equal((await servedBy(elsewhere.headers['x-request-id'])).instance, other);
step(`the session made on instance ${loggedInOn.name} is logged in on instance ${other.name}`);

// --- 5. The client's real address, whatever X-Forwarded-For it claims ---------------------------

// From 127.0.0.2, so the address nginx saw differs from nginx's own (127.0.0.1, the app's peer).
const forgedId = 'client-chosen-request-id-0001';
const seen = [];
for (let i = 0; i < 4; i += 1) {
  const answer = await send(`${httpsOrigin}/lapi/products/`, {
    localAddress: '127.0.0.2',
    headers: { 'x-forwarded-for': '203.0.113.7', 'x-request-id': forgedId },
  });
  assert.equal(answer.status, 200, answer.text);
  const id = answer.headers['x-request-id'];
  assert.match(id, /^[0-9a-f]{32}$/, "nginx's $request_id, not the client's");
  const { instance, line } = await servedBy(id);
  assert.equal(line.req.remoteAddress, '127.0.0.2', JSON.stringify(line));
  const access = await eventually(`nginx's access log line for ${id}`, () =>
    fs
      .readFileSync(nginxLog, 'utf8')
      .split('\n')
      .find((entry) => entry.includes(`id=${id}`)),
  );
  assert.ok(access.startsWith('127.0.0.2 '), access);
  seen.push(instance.name);
}
assert.ok(
  instances.every((instance) => seen.includes(instance.name)),
  `both instances served /lapi/products/ (round robin), got ${seen.join(', ')}`,
);
step(
  `a request from 127.0.0.2 claiming X-Forwarded-For 203.0.113.7 is logged as 127.0.0.2 by the app (instances ${seen.join(', ')}) and by nginx, under nginx's request id`,
);

// --- 6. Photo IDs: the app's 10 MiB limit passes nginx, a bigger body does not ----------------

const MAX_UPLOAD_BYTES = 10 * 1024 * 1024; // src/shared/visits.ts
const multipart = (size) => {
  const boundary = `----deploy${crypto.randomBytes(8).toString('hex')}`;
  return {
    type: `multipart/form-data; boundary=${boundary}`,
    body: Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="fileToUpload"; filename="id.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
      ),
      Buffer.alloc(size, 0xff),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
  };
};
const largest = multipart(MAX_UPLOAD_BYTES);
const uploaded = await send(`${httpsOrigin}/lapi/upload_image/`, {
  method: 'POST',
  headers: { 'content-type': largest.type, origin: httpsOrigin, cookie },
  body: largest.body,
});
// The app read the whole file and then found no visit named: its own 400, not nginx's 413.
assert.equal(uploaded.status, 400, uploaded.text);
assert.deepEqual(json(uploaded).fields, { visit_id: 'Choose a visit' });
await servedBy(uploaded.headers['x-request-id']);
const tooBig = multipart(12 * 1024 * 1024);
const refused = await send(`${httpsOrigin}/lapi/upload_image/`, {
  method: 'POST',
  headers: { 'content-type': tooBig.type, origin: httpsOrigin, cookie },
  body: tooBig.body,
  expectContinue: true,
});
assert.equal(refused.status, 413);
step(
  `a ${largest.body.length}-byte photo-ID upload reaches the app (its 400: no visit named); a 12 MiB one gets nginx's 413`,
);

// --- 7. One instance stops; nginx sends everything to the other, the session carries on -------

process.kill(loggedInOn.pid, 'SIGTERM');
await eventually(
  `instance ${loggedInOn.name} to stop listening`,
  async () => {
    try {
      await send(`${loggedInOn.origin}/healthz`);
      return false;
    } catch (error) {
      // Refused: nothing listens there any more. Anything else (a reset while it drains): ask again.
      return error.code === 'ECONNREFUSED';
    }
  },
  15000,
);
for (let i = 0; i < 3; i += 1) {
  const answer = await call('/account/verifyauthentication/', {}, cookie);
  assert.equal(answer.status, 200, answer.text);
  assert.equal(json(answer).data.user?.email, email);
  assert.equal((await servedBy(answer.headers['x-request-id'])).instance, other);
}
assert.ok(
  logLines(loggedInOn.log).some((line) => line.msg === 'shutting down'),
  `instance ${loggedInOn.name} shut down on SIGTERM`,
);
step(
  `instance ${loggedInOn.name} stopped (SIGTERM); three calls through nginx went to ${other.name}, still logged in`,
);

// --- 8. Nothing went wrong, and nothing secret was written down --------------------------------

for (const instance of instances) {
  const bad = logLines(instance.log).filter((line) => line.level >= 50);
  assert.deepEqual(bad, [], `instance ${instance.name} logged errors`);
  const text = fs.readFileSync(instance.log, 'utf8');
  for (const secret of [password, sessionToken])
    assert.ok(!text.includes(secret), `instance ${instance.name}'s log holds a secret`);
}
const accessLog = fs.readFileSync(nginxLog, 'utf8');
assert.ok(!accessLog.includes('ref=deploy-test'), "nginx's log holds no query string");
step('no error in either instance log; no password, session token or query string in any log');
