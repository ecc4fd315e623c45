/**
 * In-memory Repository over a seed. Static data is shared read-only; the mutable parts (issued
 * tokens and sessions, pending batches, patients, conditions, payors, price contracts) belong to
 * the instance and start from copies of the seed. Lists come in id order unless noted.
 */
import { randomBytes } from 'node:crypto';
import { SEED, type Seed } from '../fixtures/seed.ts';
import type {
  AccessGrant,
  Batch,
  ConditionRecord,
  PatientRecord,
  Payor,
  PriceContract,
  RefreshGrant,
} from './model.ts';
import type { IdKind, Repository } from './repository.ts';

const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

const ID_PREFIX: Readonly<Record<IdKind, string>> = {
  patient: 'PAT',
  condition: 'COND',
  telecom: 'TEL',
  address: 'ADDR',
  evidence: 'DOC',
  payor: 'CT',
  price: 'PC',
};

const opaque = () => randomBytes(24).toString('base64url');
const siteKey = (siteId: string, id: string) => `${siteId}\u0000${id}`;

export function createMemoryRepository(seed: Seed = SEED): Repository {
  const grants = new Map<string, AccessGrant>();
  const refreshTokens = new Map<string, RefreshGrant>();
  const pending = new Map<string, Batch>(seed.batches.map((b) => [b.id, b]));
  const counters = new Map<IdKind, number>();
  const patients = new Map<string, PatientRecord>(
    seed.patients.map((p) => [siteKey(p.siteId, p.resource.id), structuredClone(p)]),
  );
  const conditions = new Map<string, ConditionRecord>(
    seed.conditions.map((c) => [siteKey(c.siteId, c.resource.id), structuredClone(c)]),
  );
  let payors: Payor[] = seed.payors.map((p) => ({ ...p }));
  const priceContracts = new Map<string, PriceContract>(seed.priceContracts.map((c) => [c.id, structuredClone(c)]));

  const clientOf = (clientId: string | undefined) => seed.clients.find((c) => c.clientId === clientId);
  const accessToken = (grant: Omit<AccessGrant, 'token'>) => {
    const token = opaque();
    grants.set(token, { ...grant, token });
    return token;
  };

  return {
    async client(clientId) {
      return seed.clients.find((c) => c.clientId === clientId);
    },
    async issueToken(clientId) {
      if (!clientOf(clientId)) throw new Error(`Unknown client ${clientId}`);
      return accessToken({ kind: 'client', clientId });
    },
    async clientForToken(token) {
      const grant = grants.get(token);
      return grant?.kind === 'diary' ? undefined : clientOf(grant?.clientId);
    },
    async issueUserTokens(clientId, userId) {
      if (!clientOf(clientId)) throw new Error(`Unknown client ${clientId}`);
      const sessionId = opaque();
      const refreshToken = opaque();
      refreshTokens.set(refreshToken, { refreshToken, clientId, userId, sessionId });
      return { accessToken: accessToken({ kind: 'user', clientId, userId, sessionId }), refreshToken };
    },
    async refreshUserTokens(refreshToken) {
      const r = refreshTokens.get(refreshToken);
      if (!r) return undefined;
      return {
        accessToken: accessToken({ kind: 'user', clientId: r.clientId, userId: r.userId, sessionId: r.sessionId }),
        refreshToken,
      };
    },
    async issueDiaryToken() {
      return accessToken({ kind: 'diary' });
    },
    async accessGrant(token) {
      return grants.get(token);
    },
    async refreshGrant(refreshToken) {
      return refreshTokens.get(refreshToken);
    },
    async revokeAccessToken(token) {
      return grants.delete(token);
    },
    async revokeRefreshToken(refreshToken) {
      const r = refreshTokens.get(refreshToken);
      refreshTokens.delete(refreshToken);
      return r?.sessionId;
    },
    async restoreRefreshGrant(grant) {
      refreshTokens.set(grant.refreshToken, { ...grant });
    },
    async revokeSession(sessionId) {
      for (const [token, g] of grants) if (g.sessionId === sessionId) grants.delete(token);
      for (const [token, r] of refreshTokens) if (r.sessionId === sessionId) refreshTokens.delete(token);
    },
    async members() {
      return seed.members;
    },
    async authorisations(siteId) {
      return seed.authorisations.filter((a) => a.siteId === siteId);
    },
    async remittanceSummaries(siteId) {
      return seed.remittanceSummaries.filter((s) => s.siteId === siteId);
    },
    async remittanceSummary(siteId, id) {
      return seed.remittanceSummaries.find((s) => s.siteId === siteId && s.id === id);
    },
    async remittanceDetails(summaryId) {
      return seed.remittanceDetails.filter((d) => d.summaryId === summaryId);
    },
    async pendingBatches(siteId) {
      return [...pending.values()].filter((b) => siteId === undefined || b.siteId === siteId).sort(byId);
    },
    async pendingBatch(siteId, id) {
      const batch = pending.get(id);
      return batch && (siteId === undefined || batch.siteId === siteId) ? batch : undefined;
    },
    async removeBatch(id) {
      return pending.delete(id);
    },
    async hospitalClaims() {
      return seed.hospitalClaims;
    },
    async bills() {
      return seed.bills;
    },
    async bill(id) {
      return seed.bills.find((b) => b.id === id);
    },
    async codeSet(name) {
      return seed.codeSets.find((s) => s.name === name);
    },
    async locations() {
      return [...seed.locations].sort(byId);
    },
    async referenceInsurers() {
      return [...seed.referenceInsurers].sort(byId);
    },
    async addressItems() {
      return seed.addressItems;
    },
    async postcodes() {
      return seed.postcodes;
    },
    async registerPractitioners() {
      return [...seed.registerPractitioners].sort(byId);
    },
    async registerRoles() {
      return [...seed.registerRoles].sort(byId);
    },
    async photo(practitionerId) {
      return seed.photos.find((p) => p.practitionerId === practitionerId);
    },
    async bookingLocations() {
      return seed.bookingLocations;
    },
    async bookingPractitioners() {
      return [...seed.bookingPractitioners].sort(byId);
    },
    async bookingRoles() {
      return [...seed.bookingRoles].sort(byId);
    },
    async sites() {
      return [...seed.sites].sort(byId);
    },
    async users() {
      return seed.users;
    },
    async clientAccounts() {
      return seed.clientAccounts;
    },
    async roles() {
      return seed.roles;
    },
    async subscriptions() {
      return seed.subscriptions;
    },
    async userInfoCodes() {
      return seed.userInfoCodes;
    },
    async events() {
      return seed.events;
    },
    async idpSignIns() {
      return seed.idpSignIns;
    },
    async diaryCodes() {
      return seed.diaryCodes;
    },
    async diaryLists() {
      return seed.diaryLists;
    },
    async newId(kind) {
      const n = (counters.get(kind) ?? 1000) + 1;
      counters.set(kind, n);
      return `${ID_PREFIX[kind]}-${n}`;
    },
    async patient(siteId, id) {
      return structuredClone(patients.get(siteKey(siteId, id)));
    },
    async savePatient(record) {
      patients.set(siteKey(record.siteId, record.resource.id), structuredClone(record));
    },
    async removePatient(siteId, id) {
      if (!patients.delete(siteKey(siteId, id))) return false;
      for (const [key, c] of conditions) if (c.siteId === siteId && c.patientId === id) conditions.delete(key);
      return true;
    },
    async condition(siteId, id) {
      return structuredClone(conditions.get(siteKey(siteId, id)));
    },
    async saveCondition(record) {
      conditions.set(siteKey(record.siteId, record.resource.id), structuredClone(record));
    },
    async removeCondition(siteId, id) {
      return conditions.delete(siteKey(siteId, id));
    },
    async payors(siteId) {
      return payors.filter((p) => p.siteId === siteId).map((p) => ({ ...p }));
    },
    async savePayor(payor) {
      const k = payors.findIndex((p) => p.contractId === payor.contractId);
      if (k < 0) payors.push({ ...payor });
      else payors[k] = { ...payor };
    },
    async removePayor(siteId, contractId) {
      const before = payors.length;
      payors = payors.filter((p) => !(p.siteId === siteId && p.contractId === contractId));
      return payors.length < before;
    },
    async priceContracts(siteId) {
      return [...priceContracts.values()]
        .filter((c) => siteId === undefined || c.siteId === siteId)
        .sort(byId)
        .map((c) => structuredClone(c));
    },
    async savePriceContract(contract) {
      priceContracts.set(contract.id, structuredClone(contract));
    },
    async removePriceContract(id) {
      return priceContracts.delete(id);
    },
  };
}
