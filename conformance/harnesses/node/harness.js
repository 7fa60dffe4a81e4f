#!/usr/bin/env node
// mcp-touchstone harness protocol v1, in Node.js with its standard library only.
//
// Written from spec/*.md and shared/protocol/harness-v1.md the way an SDK team would write it:
// JSON.parse for the wire, serde_json's text layout written by hand (jsonText), serde's derived
// decoders as small combinators (struct, unitEnum), node:crypto for SHA-256 and ChaCha20-Poly1305.
// What this gets wrong against the reference is listed, with the reason, in baseline.json: all of
// it is JSON.parse's reading (one number type: 1.0 reads as 1, integers above 2^53 lose digits; a
// repeated key keeps its last value), which only a hand-written parser would avoid. DRT it with
// `touchstone drt --js-numbers` (spec/conformance.md CONF-DRT-5).
//
// Length: one file of about 750 lines on purpose: a complete harness an SDK team can read and
// copy whole (spec/conformance.md, "Run it against your SDK").
//
// TOUCHSTONE_NODE_PLANT=<bug> plants a deliberate bug (tests check the runner catches it):
//   path-prefix  PathPrefix compares raw string prefixes (no segment boundary)
//   digest       the answers digest hashes the responses without sorting keys
'use strict';

const crypto = require('node:crypto');
const readline = require('node:readline');

const PLANT = process.env.TOUCHSTONE_NODE_PLANT || '';

class InvalidInput extends Error {}

const isObj = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const isStr = (v) => typeof v === 'string';
const has = (o, k) => Object.prototype.hasOwnProperty.call(o, k);
const invalid = (message) => ({ error: { kind: 'invalid_input', message } });
const utf8len = (s) => Buffer.byteLength(s, 'utf8');

// ---------------------------------------------------------------- JSON (JSON-CANON-1, JSON-FLOAT-*)

// JSON text as serde_json writes it, as far as a JavaScript number can say: an integer in
// i64/u64 range as its digits, -0 as -0.0 (serde_json reads "-0" as the float -0.0), any other
// number in serde_json's float layout (shortest round-trip digits, positional when the decimal
// exponent is in [-5, 16), else d[.ddd]e±X). What JSON.parse has already lost (1.0 read as 1,
// integers above 2^53) cannot be written back: baseline.json lists those vectors.
const I64_MIN = -(2 ** 63);
function numberText(x) {
  if (Object.is(x, -0)) return '-0.0';
  if (Number.isInteger(x) && x >= I64_MIN && x < 2 ** 64) return BigInt(x).toString();
  const [mantissa, e] = x.toExponential().split('e');
  const exp = Number(e);
  const sign = x < 0 ? '-' : '';
  const digits = mantissa.replace('-', '').replace('.', '');
  if (exp < -5 || exp >= 16) {
    const tail = digits.length > 1 ? `.${digits.slice(1)}` : '';
    return `${sign}${digits[0]}${tail}e${exp > 0 ? '+' : '-'}${Math.abs(exp)}`;
  }
  if (exp < 0) return `${sign}0.${'0'.repeat(-exp - 1)}${digits}`;
  const whole = digits.slice(0, exp + 1).padEnd(exp + 1, '0');
  return `${sign}${whole}.${digits.slice(exp + 1) || '0'}`;
}

// sorted: keys by code point at every depth (serde_json's BTreeMap order); skip: keys left out
// of the outermost object (MRTR-BIND-1's salient params).
function jsonText(value, sorted, skip) {
  if (typeof value === 'number') return numberText(value);
  if (Array.isArray(value)) return '[' + value.map((v) => jsonText(v, sorted)).join(',') + ']';
  if (isObj(value)) {
    let keys = Object.keys(value);
    if (skip) keys = keys.filter((k) => !skip.has(k));
    if (sorted) keys.sort(codePointCompare);
    return '{' + keys.map((k) => JSON.stringify(k) + ':' + jsonText(value[k], sorted)).join(',') +
      '}';
  }
  return JSON.stringify(value);
}

const canonical = (value, skip) => jsonText(value, true, skip);

function codePointCompare(a, b) {
  const x = Array.from(a), y = Array.from(b);
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = x[i].codePointAt(0) - y[i].codePointAt(0);
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

const sha256 = (data) => crypto.createHash('sha256').update(data).digest();
const b64url = (buf) => Buffer.from(buf).toString('base64url');

// ---------------------------------------------------------------- mrtr (MRTR-BIND, MRTR-DIGEST)

const UNSALIENT = new Set(['_meta', 'inputResponses', 'requestState']);

function binding(method, params) {
  const text = params === undefined ? 'null' : canonical(params, isObj(params) ? UNSALIENT : null);
  return method + ':' + b64url(sha256(Buffer.from(text, 'utf8')));
}

function requestBinding(input) {
  if (!isObj(input) || !isStr(input.method)) return invalid('method must be a string');
  return { binding: binding(input.method, input.params) };
}

function inputResponsesDigest(input) {
  if (!isObj(input) || !isObj(input.responses)) return invalid('responses must be an object');
  const text = PLANT === 'digest' ? jsonText(input.responses, false) : canonical(input.responses);
  return { digest: b64url(sha256(Buffer.from(text, 'utf8'))) };
}

// ---------------------------------------------------------------- sealed state (MRTR-TOKEN/KEY)

const KEY_LABEL = Buffer.from('neva:mrtr:requestState:v1', 'ascii');
const HEX = /^(?:[0-9a-fA-F]{2})*$/;
const B64URL = /^[A-Za-z0-9_-]*$/;
const codeError = (code, message) => ({ error: { code, message } });

function keyring(keys) {
  if (!Array.isArray(keys)) throw new InvalidInput('keys must be an array');
  const ring = new Map();
  for (const k of keys) {
    if (!isObj(k) || !isStr(k.kid) || !isStr(k.secret_hex) || !HEX.test(k.secret_hex)) {
      throw new InvalidInput('each key needs a kid and an even-length hex secret_hex');
    }
    ring.set(k.kid, Buffer.from(k.secret_hex, 'hex'));
  }
  return ring;
}

const aeadKey = (secret) => sha256(Buffer.concat([KEY_LABEL, secret]));

// u64: JavaScript reads u64::MAX as 2^64, which is refused (baseline.json).
const isU64 = (n) => Number.isInteger(n) && !Object.is(n, -0) && n >= 0 && n < 2 ** 64;

// neva's StatePayload as serde reads it (MRTR-PAYLOAD-*): a map by field name (other keys
// ignored) or serde's sequence form, its fields in declared order, where `principal` (an Option
// without a default) is required too. Throws InvalidInput naming the problem.
const PAYLOAD_FIELDS = ['answers', 'requested', 'memos', 'effects', 'exp', 'req', 'principal', 'aud'];
const PAYLOAD_DEFAULTS = { requested: [], memos: {}, effects: [], principal: null, aud: null };

function statePayload(p) {
  let fields;
  if (isObj(p)) {
    fields = p;
  } else if (Array.isArray(p)) {
    if (p.length > PAYLOAD_FIELDS.length) throw new InvalidInput('too many payload elements');
    fields = {};
    p.forEach((v, i) => { fields[PAYLOAD_FIELDS[i]] = v; });
    if (p.length < 7) throw new InvalidInput(`payload element ${PAYLOAD_FIELDS[p.length]} missing`);
  } else {
    throw new InvalidInput('invalid type: expected struct StatePayload');
  }
  const out = {};
  for (const k of PAYLOAD_FIELDS) {
    if (has(fields, k)) out[k] = fields[k];
    else if (has(PAYLOAD_DEFAULTS, k)) out[k] = PAYLOAD_DEFAULTS[k];
    else throw new InvalidInput(`missing field \`${k}\``);
  }
  const strList = (v) => Array.isArray(v) && v.every(isStr);
  const optStr = (v) => v === null || isStr(v);
  if (!isObj(out.answers) || !isObj(out.memos)) throw new InvalidInput('answers and memos: maps');
  if (!strList(out.requested) || !strList(out.effects)) {
    throw new InvalidInput('requested and effects must be arrays of strings');
  }
  if (!isU64(out.exp)) throw new InvalidInput('exp must be a u64');
  if (!isStr(out.req)) throw new InvalidInput('req must be a string');
  if (!optStr(out.principal) || !optStr(out.aud)) {
    throw new InvalidInput('principal and aud are strings or null');
  }
  out.effects = Array.from(new Set(out.effects)); // a set in neva: repeats dropped
  return out;
}

function payloadText(p) {
  const f = statePayload(p);
  // MRTR-PAYLOAD-1: field order fixed; answers and memos written sorted at every depth.
  const text = `{"answers":${canonical(f.answers)},"requested":${jsonText(f.requested)},` +
    `"memos":${canonical(f.memos)},"effects":${jsonText(f.effects)},"exp":${numberText(f.exp)},` +
    `"req":${JSON.stringify(f.req)},"principal":${jsonText(f.principal)},` +
    `"aud":${jsonText(f.aud)}}`;
  return { text, aud: f.aud };
}

function seal(input) {
  if (!isObj(input)) return invalid('input must be an object');
  let ring, plain;
  try {
    ring = keyring(input.keys);
    if (!isStr(input.active_kid)) throw new InvalidInput('active_kid must be a string');
    if (!isStr(input.nonce_hex) || !/^[0-9a-fA-F]{24}$/.test(input.nonce_hex)) {
      throw new InvalidInput('nonce_hex must be 24 hex characters');
    }
    plain = payloadText(input.payload);
  } catch (e) {
    if (e instanceof InvalidInput) return invalid(e.message);
    throw e;
  }
  const kid = input.active_kid;
  if (!ring.has(kid)) return codeError(-32603, 'active requestState kid has no key in the keyring');
  if (kid === '' || kid.includes('.')) {
    return codeError(-32603, "requestState kid must be non-empty and must not contain '.'");
  }
  const version = plain.aud !== null ? 'v2' : 'v1';
  const nonce = Buffer.from(input.nonce_hex, 'hex');
  const cipher = crypto.createCipheriv('chacha20-poly1305', aeadKey(ring.get(kid)), nonce, {
    authTagLength: 16,
  });
  cipher.setAAD(Buffer.from(`${version}.${kid}`, 'utf8'));
  const body = Buffer.concat([cipher.update(Buffer.from(plain.text, 'utf8')), cipher.final()]);
  const sealed = Buffer.concat([body, cipher.getAuthTag()]);
  return { token: `${version}.${kid}.${b64url(nonce)}.${b64url(sealed)}` };
}

function strictB64(text) {
  // MRTR-B64-1: URL-safe alphabet, no padding, no length 1 mod 4, zero trailing bits.
  if (!B64URL.test(text) || text.length % 4 === 1) return null;
  const buf = Buffer.from(text, 'base64url');
  return b64url(buf) === text ? buf : null;
}

function readPayload(text) {
  let p;
  try {
    p = JSON.parse(text);
  } catch (e) {
    return codeError(-32700, `payload is not JSON: ${e.message}`);
  }
  let payload;
  try {
    payload = statePayload(p);
  } catch (e) {
    if (e instanceof InvalidInput) return codeError(-32700, e.message);
    throw e;
  }
  // MRTR-PAYLOAD-8: serde_json's recursion limit of 128 counts the payload's own container, so a
  // typed field nests at most 126 levels (an ignored member has no limit).
  if (nests(payload.answers, 126) || nests(payload.memos, 126)) {
    return codeError(-32700, 'recursion limit exceeded');
  }
  payload.effects.sort(codePointCompare);
  return { payload };
}

// Whether `value` nests containers more than `levels` deep (an empty one counts as a level).
function nests(value, levels) {
  if (value === null || typeof value !== 'object') return false;
  if (levels === 0) return true;
  return Object.values(value).some((v) => nests(v, levels - 1));
}

function open(input) {
  if (!isObj(input) || !isStr(input.token)) return invalid('token must be a string');
  let ring;
  try {
    ring = keyring(input.keys);
  } catch (e) {
    if (e instanceof InvalidInput) return invalid(e.message);
    throw e;
  }
  // An absent or null check opens only; an absent principal or audience is null.
  const check = input.check === null || input.check === undefined ? undefined : input.check;
  if (check !== undefined) {
    const optStr = (v) => v === undefined || v === null || isStr(v);
    if (!isObj(check) || !isStr(check.method) || !isU64(check.now) ||
        !isU64(check.max_state_bytes) || !optStr(check.principal) || !optStr(check.audience)) {
      return invalid('check needs method, now and max_state_bytes; principal, audience: optional');
    }
    if (utf8len(input.token) > check.max_state_bytes) {
      return codeError(-32602, 'requestState exceeds the configured maximum size');
    }
  }
  const parts = input.token.split('.');
  if (parts.length !== 4) return codeError(-32602, 'malformed requestState');
  const [version, kid, nonceText, bodyText] = parts;
  if (version !== 'v1' && version !== 'v2') {
    return codeError(-32602, 'unsupported requestState version');
  }
  if (!ring.has(kid)) return codeError(-32602, 'unknown requestState key id');
  const nonce = strictB64(nonceText);
  if (nonce === null) return codeError(-32602, 'bad requestState nonce');
  const body = strictB64(bodyText);
  if (body === null) return codeError(-32602, 'bad requestState payload');
  if (nonce.length !== 12) return codeError(-32602, 'bad requestState nonce');
  if (body.length < 16) return codeError(-32602, 'requestState integrity check failed');
  let plain;
  try {
    const decipher = crypto.createDecipheriv('chacha20-poly1305', aeadKey(ring.get(kid)), nonce, {
      authTagLength: 16,
    });
    decipher.setAAD(Buffer.from(`${version}.${kid}`, 'utf8'));
    decipher.setAuthTag(body.subarray(body.length - 16));
    plain = Buffer.concat([decipher.update(body.subarray(0, body.length - 16)), decipher.final()]);
  } catch (e) {
    return codeError(-32602, 'requestState integrity check failed');
  }
  // MRTR-PAYLOAD-7: invalid UTF-8 in a field the payload reads is refused; serde skips an unknown
  // member without validating it. A leading U+FEFF is kept (JSON.parse then refuses it).
  let text, lossy = false;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(plain);
  } catch (e) {
    text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(plain);
    lossy = true;
  }
  const read = readPayload(text);
  if (lossy && !read.error && jsonText(read.payload).includes('\uFFFD')) {
    return codeError(-32700, 'payload is not UTF-8');
  }
  if (read.error || check === undefined) return read;
  const p = read.payload;
  if (p.exp < check.now) return codeError(-32602, 'requestState expired');
  if (p.req !== binding(check.method, check.params)) {
    return codeError(-32602, 'requestState does not match this request');
  }
  if (p.principal !== (check.principal ?? null)) {
    return codeError(-32602, 'requestState principal mismatch');
  }
  if (p.aud !== (check.audience ?? null)) return codeError(-32602, 'requestState audience mismatch');
  return read;
}

// ---------------------------------------------------------------- visibility (VIS-META, VIS-ID)

// Rust's char::is_whitespace (Unicode White_Space), VIS-ID-3.
const RUST_WS = /[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/u;
const KINDS = new Set(['tool', 'resource', 'resource_template', 'prompt']);

function stringsAt(meta, key) {
  const v = isObj(meta) ? meta[key] : undefined;
  return Array.isArray(v) ? v.filter(isStr) : [];
}

function grantedScopes(identity) {
  if (!isObj(identity) || !isStr(identity.sub)) return null;
  const claims = isObj(identity.claims) ? identity.claims : {};
  const out = isStr(claims.scope) ? claims.scope.split(RUST_WS).filter((t) => t !== '') : [];
  if (Array.isArray(claims.scp)) out.push(...claims.scp.filter(isStr));
  return out;
}

function isVisible(input) {
  if (!isObj(input)) return invalid('input must be an object');
  const { policy, component } = input;
  if (!has(input, 'identity')) return invalid('identity is required');
  if (!isObj(policy) || !Array.isArray(policy.hidden_tags) || !policy.hidden_tags.every(isStr) ||
      typeof policy.requiring_declared_scopes !== 'boolean') {
    return invalid('policy needs hidden_tags (strings) and requiring_declared_scopes (bool)');
  }
  if (!isObj(component) || !KINDS.has(component.kind) || !isStr(component.id)) {
    return invalid('component needs a kind and a string id');
  }
  const meta = has(component, 'meta') ? component.meta : {};
  if (!isObj(meta)) return invalid('component meta must be an object');
  const hidden = new Set(policy.hidden_tags);
  if (stringsAt(meta, 'io.turbomcp/tags').some((t) => hidden.has(t))) return { visible: false };
  if (policy.requiring_declared_scopes) {
    const required = stringsAt(meta, 'io.turbomcp/scopes');
    if (required.length > 0) {
      const granted = new Set(grantedScopes(input.identity) || []);
      if (!required.every((s) => granted.has(s))) return { visible: false };
    }
  }
  return { visible: true };
}

// ---------------------------------------------------------------- scope (SCOPE-*)

// serde's derived decoders as combinators (SCOPE-SHAPE-*): a struct is read from a map by field
// name or from an array by position; a unit enum is a variant name or a single-key map whose
// value is null. Only validity matters: invalid_input messages are not compared (HARNESS-CMP-2).
const fail = (where, what) => { throw new InvalidInput(`${where}: ${what}`); };
const REQ = Symbol('required');
const OPT = Symbol('optional'); // Option without #[serde(default)]: required positionally
const U32_MAX = 0xffffffff;

const str = (v, w) => (isStr(v) ? v : fail(w, 'expected a string'));
const bool = (v, w) => (typeof v === 'boolean' ? v : fail(w, 'expected a boolean'));
// -0 is serde_json's float -0.0, never an integer.
const isUint = (v, limit) => Number.isInteger(v) && !Object.is(v, -0) && v >= 0 && v <= limit;
const u32 = (v, w) => (isUint(v, U32_MAX) ? v : fail(w, 'expected a u32'));
const u64 = (v, w) => (isU64(v) ? v : fail(w, 'expected a u64'));
const option = (inner) => (v, w) => (v === null ? null : inner(v, w));
const seq = (inner) => (v, w) =>
  (Array.isArray(v) ? v.map((x, i) => inner(x, `${w}[${i}]`)) : fail(w, 'expected a sequence'));

function unitEnum(names) {
  return (v, w) => {
    let name = v;
    if (isObj(v)) {
      const keys = Object.keys(v);
      if (keys.length !== 1) fail(w, 'expected a map with a single key');
      name = keys[0];
      if (v[name] !== null) fail(w, 'expected a unit variant');
    } else if (!isStr(v)) fail(w, 'expected a string or map');
    return names.includes(name) ? name : fail(w, `unknown variant ${name}`);
  };
}

// fields: [name, decode, REQ | OPT | default value]
function struct(fields, { denyUnknown, positional = true }) {
  return (v, w) => {
    const out = {};
    if (isObj(v)) {
      if (denyUnknown) {
        for (const k of Object.keys(v)) {
          if (!fields.some(([name]) => name === k)) fail(w, `unknown field ${k}`);
        }
      }
      for (const [name, decode, mode] of fields) {
        if (has(v, name)) out[name] = decode(v[name], `${w}.${name}`);
        else if (mode === REQ) fail(w, `missing field ${name}`);
        else out[name] = mode === OPT ? null : mode;
      }
      return out;
    }
    if (positional && Array.isArray(v)) {
      if (v.length > fields.length) fail(w, 'expected fewer elements in array');
      fields.forEach(([name, decode, mode], i) => {
        if (i < v.length) out[name] = decode(v[i], `${w}[${i}]`);
        else if (mode === REQ || mode === OPT) fail(w, `missing element ${i}`);
        else out[name] = mode;
      });
      return out;
    }
    return fail(w, 'expected a struct');
  };
}

const OPERATIONS = unitEnum(['invoke', 'read_result', 'read', 'subscribe', 'get', 'delegate']);
const monetary = struct([['units', u64, REQ], ['currency', str, REQ]], { denyUnknown: true });
const bindingBody = struct([
  ...['schema', 'root_capability_id', 'root_capability_hash', 'root_issuer', 'root_subject',
    'root_scope_hash', 'root_grant_hash', 'approval_budget_id'].map((f) => [f, str, REQ]),
  ['approval_budget_epoch', u64, REQ], ['threshold', monetary, REQ], ['root_expires_at', u64, REQ],
], { denyUnknown: true });
const rootBinding = struct([
  ['body', bindingBody, REQ],
  ['algorithm', option(unitEnum(['ed25519', 'p256', 'p384'])), null],
  ['signature', str, REQ],
], { denyUnknown: true });
const variant = (fields) => struct(fields, { denyUnknown: true, positional: false });
const strings = seq(str);

// The refused variants (SCOPE-CON-2) are decoded as fully as the decided ones.
const CONTENT = {
  path_prefix: str, domain_exact: str, domain_glob: str, regex_match: str,
  max_length: u64, max_args_size: u64,
  governed_intent_required: (v, w) => (v === null ? null : fail(w, 'expected a unit variant')),
  require_approval_above: variant([['threshold_units', u64, REQ]]),
  require_cumulative_approval_above: variant([
    ['threshold', monetary, REQ], ['approval_budget_id', str, REQ],
    ['approval_budget_epoch', u64, REQ],
    ['cumulative_approval_root_binding', option(rootBinding), null],
  ]),
  seller_exact: str,
  minimum_runtime_assurance: unitEnum(['none', 'basic', 'attested', 'verified']),
  minimum_autonomy_tier: unitEnum(['direct', 'delegated', 'autonomous']),
  custom: (v, w) => (Array.isArray(v) && v.length === 2 ? strings(v, w)
    : fail(w, 'expected an array of two strings')),
  table_allowlist: strings, column_denylist: strings, max_rows_returned: u64,
  operation_class: unitEnum(['read_only', 'read_write', 'admin']),
  audience_allowlist: strings,
  content_review_tier: unitEnum(['none', 'basic', 'strict']),
  max_transaction_amount_usd: str, require_dual_approval: bool,
  model_constraint: variant([
    ['allowed_model_ids', strings, REQ],
    ['min_safety_tier', option(unitEnum(['low', 'standard', 'high', 'restricted'])), OPT],
  ]),
  memory_store_allowlist: strings, memory_write_deny_patterns: strings,
};

// In the map form serde reads the tag as a unit enum ({"max_length": null} names a variant);
// in the array form it is a plain string.
function constraintTag(v, w, asEnum) {
  let name = v;
  if (asEnum && isObj(v)) {
    const keys = Object.keys(v);
    if (keys.length !== 1 || v[keys[0]] !== null) fail(w, 'expected a unit variant tag');
    name = keys[0];
  } else if (!isStr(v)) fail(w, 'expected a variant identifier');
  return has(CONTENT, name) ? name : fail(w, `unknown variant ${name}`);
}

function decodeConstraint(c, where) {
  let tag, value;
  if (isObj(c)) {
    for (const k of Object.keys(c)) if (k !== 'type' && k !== 'value') fail(where, `unknown key ${k}`);
    if (!has(c, 'type')) fail(where, 'missing field type');
    tag = constraintTag(c.type, `${where}.type`, true);
    if (!has(c, 'value')) {
      if (tag !== 'governed_intent_required') fail(where, 'missing field value');
      return { tag };
    }
    value = CONTENT[tag](c.value, `${where}.value`);
  } else if (Array.isArray(c) && c.length > 0) {
    tag = constraintTag(c[0], `${where}[0]`, false);
    if (c.length !== 2) fail(where, 'expected [tag, content]');
    value = CONTENT[tag](c[1], `${where}[1]`);
  } else fail(where, 'expected an adjacently tagged constraint');
  return { tag, value };
}

const toolGrant = struct([
  ['server_id', str, REQ], ['tool_name', str, REQ], ['operations', seq(OPERATIONS), REQ],
  ['constraints', seq(decodeConstraint), []], ['max_invocations', option(u32), null],
  ['max_cost_per_invocation', option(monetary), null], ['max_total_cost', option(monetary), null],
  ['dpop_required', option(bool), null],
], { denyUnknown: false });
// SCOPE-SHAPE-1: resource and prompt grants are decoded and validated, never consulted.
const resourceGrant = struct([['uri_pattern', str, REQ], ['operations', seq(OPERATIONS), REQ]],
  { denyUnknown: false });
const promptGrant = struct([['prompt_name', str, REQ], ['operations', seq(OPERATIONS), REQ]],
  { denyUnknown: false });
const chioScope = struct([
  ['grants', seq(toolGrant), []], ['resource_grants', seq(resourceGrant), []],
  ['prompt_grants', seq(promptGrant), []],
], { denyUnknown: false });

const decodeScope = (scope) => chioScope(scope, 'scope').grants;

// SCOPE-ARG-1: string leaves with their nearest enclosing object key.
function leaves(value, key, out) {
  if (isStr(value)) out.push({ key, value });
  else if (Array.isArray(value)) for (const v of value) leaves(v, key, out);
  else if (isObj(value)) for (const k of Object.keys(value)) leaves(value[k], k, out);
  return out;
}

const PATH_KEYS = new Set(['file', 'filepath', 'dir', 'directory', 'root', 'cwd']);
const asciiLower = (s) => s.replace(/[A-Z]/g, (c) => c.toLowerCase());

function isPathCandidate({ key, value }) {
  if (key !== null) {
    const k = asciiLower(key);
    if (k.includes('path') || PATH_KEYS.has(k)) return true;
  }
  return (value.includes('/') || value.includes('\\')) && !value.includes('://');
}

function normalizePath(p) {
  const absolute = p.startsWith('/') || p.startsWith('\\');
  const segs = [];
  for (const s of p.split(/[/\\]/)) {
    if (s === '' || s === '.') continue;
    if (s === '..') {
      if (!segs.length) return null;
      segs.pop();
    } else segs.push(s);
  }
  return { absolute, segs };
}

function underPrefix(candidate, prefix) {
  if (PLANT === 'path-prefix') return candidate.startsWith(prefix);
  const c = normalizePath(candidate), p = normalizePath(prefix);
  if (!c || !p || c.absolute !== p.absolute || p.segs.length > c.segs.length) return false;
  return p.segs.every((s, i) => s === c.segs[i]);
}

const RUST_TRIM = /^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+|[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+$/gu;
const rustTrim = (s) => s.replace(RUST_TRIM, '');
const trimDots = (s) => s.replace(/^\.+|\.+$/g, '');

function parseDomain(raw) {
  let s = rustTrim(raw);
  if (s === '') return null;
  const scheme = s.indexOf('://');
  if (scheme >= 0) s = s.slice(scheme + 3);
  const cut = s.search(/[/?#]/);
  if (cut >= 0) s = s.slice(0, cut);
  const at = s.lastIndexOf('@');
  if (at >= 0) s = s.slice(at + 1);
  const colon = s.indexOf(':');
  if (colon >= 0) s = s.slice(0, colon);
  s = asciiLower(trimDots(rustTrim(trimDots(s))));
  if (s === 'localhost') return s;
  return s !== '' && s.includes('.') && /^[A-Za-z0-9.-]+$/.test(s) ? s : null;
}

function globMatch(pattern, text) {
  const parts = pattern.split('*');
  if (parts.length === 1) return pattern === text;
  const first = parts[0], last = parts[parts.length - 1];
  if (!text.startsWith(first) || text.length < first.length + last.length) return false;
  let pos = first.length;
  const end = text.length - last.length;
  for (const mid of parts.slice(1, -1)) {
    const found = text.indexOf(mid, pos);
    if (found < 0 || found + mid.length > end) return false;
    pos = found + mid.length;
  }
  return text.endsWith(last);
}

const AUDIENCE_KEYS = new Set(['recipient', 'recipients', 'audience', 'to', 'channel', 'channels']);
const STORE_KEYS = new Set(['store', 'memory_store', 'collection', 'namespace']);

function collectStrict(value, out) {
  if (isStr(value)) { out.push(value); return true; }
  if (Array.isArray(value)) return value.every((v) => collectStrict(v, out));
  return false;
}

function allowlist(args, keys, allowed) {
  let seen = false, ok = true;
  const walk = (value) => {
    if (Array.isArray(value)) { value.forEach(walk); return; }
    if (!isObj(value)) return;
    for (const k of Object.keys(value)) {
      if (keys.has(asciiLower(k))) {
        seen = true;
        const got = [];
        if (!collectStrict(value[k], got) || got.length === 0) ok = false;
        else if (!got.every((s) => allowed.includes(s))) ok = false;
      } else walk(value[k]);
    }
  };
  walk(args);
  return !seen || ok;
}

function customMatch(value, key, expected) {
  if (Array.isArray(value)) return value.some((v) => customMatch(v, key, expected));
  if (!isObj(value)) return false;
  return Object.keys(value).some((k) =>
    (k === key && value[k] === expected) || customMatch(value[k], key, expected));
}

function holds(c, args) {
  const all = (cands, pred) => cands.length > 0 && cands.every(pred);
  switch (c.tag) {
    case 'path_prefix':
      return all(leaves(args, null, []).filter(isPathCandidate).map((l) => l.value),
        (p) => underPrefix(p, c.value));
    case 'domain_exact': {
      const want = asciiLower(trimDots(rustTrim(c.value)));
      return all(leaves(args, null, []).map((l) => parseDomain(l.value)).filter((d) => d !== null),
        (d) => d === want);
    }
    case 'domain_glob': {
      const pattern = asciiLower(c.value);
      return all(leaves(args, null, []).map((l) => parseDomain(l.value)).filter((d) => d !== null),
        (d) => globMatch(pattern, d));
    }
    case 'max_length':
      return leaves(args, null, []).every((l) => utf8len(l.value) <= c.value);
    case 'max_args_size':
      return utf8len(jsonText(args === undefined ? null : args, false)) <= c.value;
    case 'custom':
      return customMatch(args, c.value[0], c.value[1]);
    case 'audience_allowlist':
      return allowlist(args, AUDIENCE_KEYS, c.value);
    case 'memory_store_allowlist':
      return allowlist(args, STORE_KEYS, c.value);
    default:
      return { refused: c.tag };
  }
}

function resolveMatchingGrants(input, capability) {
  if (!isObj(input)) return invalid('input must be an object');
  for (const k of ['scope', 'tool_name', 'server_id', 'arguments']) {
    if (!has(input, k)) return invalid(`missing ${k}`);
  }
  if (!isStr(input.tool_name) || !isStr(input.server_id)) {
    return invalid('tool_name and server_id must be strings');
  }
  let grants;
  try {
    grants = decodeScope(input.scope);
  } catch (e) {
    if (e instanceof InvalidInput) return invalid(e.message);
    throw e;
  }
  const matches = [];
  for (const [index, g] of grants.entries()) {
    const target = (g.server_id === '*' || g.server_id === input.server_id) &&
      (g.tool_name === '*' || g.tool_name === input.tool_name) && g.operations.includes('invoke');
    if (!target) continue;
    let ok = true;
    for (const c of g.constraints) {
      const verdict = holds(c, input.arguments);
      if (verdict !== true && verdict !== false) {
        return { error: { kind: 'constraint_error',
          message: `portable kernel cannot safely evaluate ${verdict.refused}` } };
      }
      if (!verdict) { ok = false; break; }
    }
    if (!ok) continue;
    matches.push({ index, specificity: [
      g.server_id === input.server_id ? 1 : 0, g.tool_name === input.tool_name ? 1 : 0,
      g.constraints.length] });
  }
  matches.sort((a, b) => {
    for (let i = 0; i < 3; i++) {
      if (a.specificity[i] !== b.specificity[i]) return b.specificity[i] - a.specificity[i];
    }
    return a.index - b.index;
  });
  if (capability && matches.length === 0) return { error: { kind: 'out_of_scope' } };
  return { matches };
}

// ---------------------------------------------------------------- the line protocol

const OPS = {
  'scope.resolve_matching_grants': (i) => resolveMatchingGrants(i, false),
  'mrtr.request_binding': requestBinding,
  'mrtr.input_responses_digest': inputResponsesDigest,
  'mrtr.state.seal': seal,
  'mrtr.state.open': open,
  'visibility.is_visible': isVisible,
};

function answer(line) {
  let req;
  try {
    req = JSON.parse(line);
  } catch (e) {
    return { errored: true, message: `request line is not JSON: ${e.message}` };
  }
  if (!isObj(req)) return { errored: true, message: 'request line is not a JSON object' };
  if (req.cmd === 'stop') return null;
  if (req.cmd === 'start') {
    return {
      version: 1,
      implementation: { name: 'touchstone-node-harness', version: '0.1.0',
        language: `javascript (node ${process.versions.node})` },
      operations: Object.keys(OPS),
    };
  }
  const seq = Number.isInteger(req.seq) ? req.seq : undefined;
  if (req.cmd !== 'run' || seq === undefined || !isObj(req.case) || !isStr(req.case.operation)) {
    return { seq, errored: true, message: 'expected a run with an integer seq and a case' };
  }
  const op = OPS[req.case.operation];
  if (!op) return { seq, skipped: true, message: `operation ${req.case.operation} is not supported` };
  try {
    return { seq, output: op(req.case.input) };
  } catch (e) {
    return { seq, errored: true, message: `${req.case.operation} failed: ${e.message}` };
  }
}

const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
const pending = [];
let scheduled = false;
const flush = () => {
  scheduled = false;
  if (pending.length) process.stdout.write(pending.splice(0).join(''));
};
rl.on('line', (line) => {
  const response = answer(line);
  if (response === null) {
    flush();
    rl.close();
    return;
  }
  pending.push(jsonText(response, false) + '\n');
  if (!scheduled) {
    scheduled = true;
    setImmediate(flush);
  }
});
rl.on('close', () => flush());
