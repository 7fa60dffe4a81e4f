#!/usr/bin/env node
// mcp-touchstone harness protocol v1, in Node.js with its standard library only.
//
// Written from spec/*.md and shared/protocol/harness-v1.md the way an SDK team would write it:
// JSON.parse / JSON.stringify for the wire, node:crypto for SHA-256 and ChaCha20-Poly1305.
// What this gets wrong against the reference is listed, with the reason, in baseline.json
// (JavaScript has one number type: 1.0 reads as 1, integers above 2^53 lose digits, and
// JSON.stringify formats floats its own way).
//
// TOUCHSTONE_NODE_PLANT=<bug> plants a deliberate bug (tests check the runner catches it):
//   path-prefix  PathPrefix compares raw string prefixes (no segment boundary)
//   digest       the answers digest hashes JSON.stringify without sorting keys
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

// ---------------------------------------------------------------- JSON (JSON-CANON-1)

function canonical(value) {
  if (Array.isArray(value)) return '[' + value.map(canonical).join(',') + ']';
  if (isObj(value)) {
    const keys = Object.keys(value).sort(codePointCompare);
    return '{' + keys.map((k) => JSON.stringify(k) + ':' + canonical(value[k])).join(',') + '}';
  }
  return JSON.stringify(value);
}

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

function salient(params) {
  if (!isObj(params)) return params === undefined ? null : params;
  const out = {};
  for (const k of Object.keys(params)) {
    if (k !== '_meta' && k !== 'inputResponses' && k !== 'requestState') out[k] = params[k];
  }
  return out;
}

function binding(method, params) {
  return method + ':' + b64url(sha256(Buffer.from(canonical(salient(params)), 'utf8')));
}

function requestBinding(input) {
  if (!isObj(input) || !isStr(input.method)) return invalid('method must be a string');
  return { binding: binding(input.method, input.params) };
}

function inputResponsesDigest(input) {
  if (!isObj(input) || !isObj(input.responses)) return invalid('responses must be an object');
  const text = PLANT === 'digest' ? JSON.stringify(input.responses) : canonical(input.responses);
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

function sortedDeep(value) {
  if (Array.isArray(value)) return value.map(sortedDeep);
  if (isObj(value)) {
    const out = {};
    for (const k of Object.keys(value).sort(codePointCompare)) out[k] = sortedDeep(value[k]);
    return out;
  }
  return value;
}

function isU64(n) {
  return Number.isInteger(n) && n >= 0 && n <= Number.MAX_SAFE_INTEGER;
}

function payloadText(p) {
  if (!isObj(p)) throw new InvalidInput('payload must be an object');
  const answers = p.answers, memos = has(p, 'memos') ? p.memos : {};
  const requested = has(p, 'requested') ? p.requested : [];
  const effects = has(p, 'effects') ? p.effects : [];
  const principal = has(p, 'principal') ? p.principal : null;
  const aud = has(p, 'aud') ? p.aud : null;
  if (!isObj(answers) || !isObj(memos)) throw new InvalidInput('answers and memos must be objects');
  for (const list of [requested, effects]) {
    if (!Array.isArray(list) || !list.every(isStr)) {
      throw new InvalidInput('requested and effects must be arrays of strings');
    }
  }
  if (!isU64(p.exp)) throw new InvalidInput('exp must be an unsigned integer');
  if (!isStr(p.req)) throw new InvalidInput('req must be a string');
  for (const v of [principal, aud]) {
    if (v !== null && !isStr(v)) throw new InvalidInput('principal and aud are strings or null');
  }
  // MRTR-PAYLOAD-1: field order fixed; objects inside answers and memos are written sorted.
  const ordered = {
    answers: sortedDeep(answers), requested, memos: sortedDeep(memos), effects,
    exp: p.exp, req: p.req, principal, aud,
  };
  return { text: JSON.stringify(ordered), aud };
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
  if (!isObj(p)) return codeError(-32700, 'invalid type: expected struct StatePayload');
  for (const k of ['answers', 'exp', 'req']) {
    if (!has(p, k)) return codeError(-32700, `missing field \`${k}\``);
  }
  const out = {
    answers: p.answers, requested: has(p, 'requested') ? p.requested : [],
    memos: has(p, 'memos') ? p.memos : {}, effects: has(p, 'effects') ? p.effects : [],
    exp: p.exp, req: p.req, principal: has(p, 'principal') ? p.principal : null,
    aud: has(p, 'aud') ? p.aud : null,
  };
  const strList = (v) => Array.isArray(v) && v.every(isStr);
  const optStr = (v) => v === null || isStr(v);
  if (!isObj(out.answers) || !isObj(out.memos) || !strList(out.requested) ||
      !strList(out.effects) || !isU64(out.exp) || !isStr(out.req) ||
      !optStr(out.principal) || !optStr(out.aud)) {
    return codeError(-32700, 'invalid type in StatePayload');
  }
  out.effects = Array.from(new Set(out.effects)).sort(codePointCompare);
  return { payload: out };
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
  const check = input.check;
  if (check !== undefined) {
    if (!isObj(check) || !isStr(check.method) || !Number.isInteger(check.now) ||
        !Number.isInteger(check.max_state_bytes) ||
        !(check.principal === null || isStr(check.principal)) ||
        !(check.audience === null || isStr(check.audience))) {
      return invalid('check needs method, principal, audience, now and max_state_bytes');
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
  const text = new TextDecoder('utf-8', { fatal: false }).decode(plain);
  const read = readPayload(text);
  if (read.error || check === undefined) return read;
  const p = read.payload;
  if (p.exp < check.now) return codeError(-32602, 'requestState expired');
  if (p.req !== binding(check.method, check.params)) {
    return codeError(-32602, 'requestState does not match this request');
  }
  if (p.principal !== check.principal) return codeError(-32602, 'requestState principal mismatch');
  if (p.aud !== check.audience) return codeError(-32602, 'requestState audience mismatch');
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

const OPERATIONS = new Set(['invoke', 'read_result', 'read', 'subscribe', 'get', 'delegate']);
const DECIDED = new Set([
  'path_prefix', 'domain_exact', 'domain_glob', 'max_length', 'max_args_size', 'custom',
  'audience_allowlist', 'memory_store_allowlist',
]);
const REFUSED = new Set([
  'regex_match', 'governed_intent_required', 'require_approval_above',
  'require_cumulative_approval_above', 'seller_exact', 'minimum_runtime_assurance',
  'minimum_autonomy_tier', 'table_allowlist', 'column_denylist', 'max_rows_returned',
  'operation_class', 'content_review_tier', 'max_transaction_amount_usd',
  'require_dual_approval', 'model_constraint', 'memory_write_deny_patterns',
]);
const STRING_VALUED = new Set([
  'path_prefix', 'domain_exact', 'domain_glob', 'regex_match', 'seller_exact',
  'max_transaction_amount_usd',
]);
const LIST_VALUED = new Set([
  'table_allowlist', 'column_denylist', 'audience_allowlist', 'memory_store_allowlist',
  'memory_write_deny_patterns',
]);
const U64_VALUED = new Set(['max_length', 'max_args_size', 'max_rows_returned']);

function decodeConstraint(c, where) {
  if (!isObj(c) || !isStr(c.type)) throw new InvalidInput(`${where}: needs a string type`);
  const extra = Object.keys(c).filter((k) => k !== 'type' && k !== 'value');
  if (extra.length) throw new InvalidInput(`${where}: unknown field ${extra[0]}`);
  const tag = c.type, v = c.value;
  if (!DECIDED.has(tag) && !REFUSED.has(tag)) throw new InvalidInput(`${where}: unknown ${tag}`);
  if (tag === 'governed_intent_required') {
    if (v !== undefined && v !== null) throw new InvalidInput(`${where}: unit variant`);
    return { tag };
  }
  if (v === undefined) throw new InvalidInput(`${where}: missing value`);
  const bad = () => { throw new InvalidInput(`${where}: bad value for ${tag}`); };
  if (STRING_VALUED.has(tag) && !isStr(v)) bad();
  if (LIST_VALUED.has(tag) && !(Array.isArray(v) && v.every(isStr))) bad();
  if (U64_VALUED.has(tag) && !isU64(v)) bad();
  if (tag === 'custom' && !(Array.isArray(v) && v.length === 2 && v.every(isStr))) bad();
  if (tag === 'require_dual_approval' && typeof v !== 'boolean') bad();
  if (['require_approval_above', 'require_cumulative_approval_above', 'model_constraint']
    .includes(tag) && !isObj(v)) bad();
  return { tag, value: v };
}

function decodeAmount(v, where) {
  if (v === null || v === undefined) return;
  if (!isObj(v) || !isU64(v.units) || !isStr(v.currency)) {
    throw new InvalidInput(`${where}: a MonetaryAmount needs units and currency`);
  }
}

function decodeScope(scope) {
  if (!isObj(scope)) throw new InvalidInput('scope must be an object');
  for (const k of ['grants', 'resource_grants', 'prompt_grants']) {
    if (has(scope, k) && !Array.isArray(scope[k])) throw new InvalidInput(`${k} must be an array`);
  }
  const grants = (scope.grants || []).map((g, i) => {
    const where = `grants[${i}]`;
    if (!isObj(g) || !isStr(g.server_id) || !isStr(g.tool_name)) {
      throw new InvalidInput(`${where}: needs server_id and tool_name strings`);
    }
    if (!Array.isArray(g.operations) || !g.operations.every((o) => OPERATIONS.has(o))) {
      throw new InvalidInput(`${where}: operations must be known operation names`);
    }
    if (has(g, 'constraints') && !Array.isArray(g.constraints)) {
      throw new InvalidInput(`${where}: constraints must be an array`);
    }
    const mi = g.max_invocations;
    if (mi !== undefined && mi !== null && !(Number.isInteger(mi) && mi >= 0 && mi <= 0xffffffff)) {
      throw new InvalidInput(`${where}: max_invocations must be a u32`);
    }
    decodeAmount(g.max_cost_per_invocation, where);
    decodeAmount(g.max_total_cost, where);
    const dp = g.dpop_required;
    if (dp !== undefined && dp !== null && typeof dp !== 'boolean') {
      throw new InvalidInput(`${where}: dpop_required must be a bool`);
    }
    const constraints = (g.constraints || []).map((c, j) =>
      decodeConstraint(c, `${where}.constraints[${j}]`));
    return { server_id: g.server_id, tool_name: g.tool_name, operations: g.operations, constraints };
  });
  return grants;
}

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
      return utf8len(JSON.stringify(args === undefined ? null : args)) <= c.value;
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
  pending.push(JSON.stringify(response) + '\n');
  if (!scheduled) {
    scheduled = true;
    setImmediate(flush);
  }
});
rl.on('close', () => flush());
