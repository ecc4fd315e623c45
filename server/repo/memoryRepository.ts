/**
 * In-memory Repository over a seed. Static data is shared read-only; the mutable parts (issued
 * tokens, pending batches) belong to the instance. Lists come in id order unless noted.
 */
import { randomBytes } from 'node:crypto';
import { SEED, type Seed } from '../fixtures/seed.ts';
import type { Batch, Client } from './model.ts';
import type { Repository } from './repository.ts';

const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

export function createMemoryRepository(seed: Seed = SEED): Repository {
  const tokens = new Map<string, Client>();
  const pending = new Map<string, Batch>(seed.batches.map((b) => [b.id, b]));

  return {
    async client(clientId) {
      return seed.clients.find((c) => c.clientId === clientId);
    },
    async issueToken(clientId) {
      const client = seed.clients.find((c) => c.clientId === clientId);
      if (!client) throw new Error(`Unknown client ${clientId}`);
      const token = randomBytes(24).toString('base64url');
      tokens.set(token, client);
      return token;
    },
    async clientForToken(token) {
      return tokens.get(token);
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
    async pendingBatch(id) {
      return pending.get(id);
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
  };
}
