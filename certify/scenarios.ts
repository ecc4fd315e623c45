/**
 * The certification scenarios: flows of the documents a partner's client runs against a workspace
 * of its own, each with what the partner's application must do (and the data to use), the
 * operations it exercises, when it is complete, and the flow checks that judge it beyond the
 * per-request checks (app/judgeClientRequest.ts). A scenario may make the workspace answer as
 * the documents allow but a client must cope with (a 401).
 */
import { isLastPage } from '../core/readers/paging.ts';
import {
  clientAcknowledgesAfterGet,
  clientFetchesListedBatch,
  clientNoActionOnMalformedAnswer,
  clientNoBlindRetry,
  clientRevokeNamesClient,
  clientPagesToLastPage,
  clientRefinesAfterMultipleMatch,
  clientRetrievesAddressItem,
  clientUsesCreatedPatientId,
} from '../checks/index.ts';
import type { Check } from '../core/check.ts';
import { type ClientExchange, jsonOf } from '../core/clientRequest.ts';
import { operationOutcome } from '../server/router/errors.ts';
import type { ActiveModifiers, Modifier } from '../server/router/types.ts';
import { type OperationId, operation as operationOf } from '../spec/operations.ts';
import type { Level } from '../spec/types.ts';

export interface FlowCheck {
  check: Check<readonly ClientExchange[]>;
  level: Level;
  requirements: string[];
  /** The operation the result is filed under. */
  operation: OperationId;
}

export interface Scenario {
  id: string;
  title: string;
  /** What the partner's application does, with the data the workspace holds for it. */
  instructions: string[];
  /** The operations the scenario exercises (the report's operations). */
  operations: OperationId[];
  /** Answers of the workspace beyond the reference behaviour (a refusal the client must cope with). */
  modifiers?: () => ActiveModifiers;
  /** The step the scenario waits for, as a client's developer reads it ("a Find Member version 2 answered 200"). */
  waitingFor: string;
  /** True once the client has done what the scenario waits for. */
  complete(exchanges: readonly ClientExchange[]): boolean;
  /**
   * True when stopping here is an answer the documents allow (after a refusal): the scenario is
   * then complete once the client has sent nothing for a quiet period.
   */
  mayStop?(exchanges: readonly ClientExchange[]): boolean;
  flow: FlowCheck[];
}

const of = (exchanges: readonly ClientExchange[], id: OperationId) => exchanges.filter((x) => x.operation?.id === id);

/**
 * True once a search answered its last page (DEC-C-04): fewer entries than its `count` tag, or no
 * match beyond it by `total` or the `maxCount` tag.
 */
function lastPageReached(xs: readonly ClientExchange[]): boolean {
  return xs.some((x) => x.status === 200 && isLastPage(jsonOf(x.responseBody)));
}

/** Modifiers of one scenario: answer every request of an operation with its body cut short (not JSON). */
function truncatedAnswers(operation: OperationId): () => ActiveModifiers {
  return () => {
    const modifier: Modifier = {
      wire: (wire) =>
        wire.status < 300 && wire.payload
          ? { ...wire, payload: wire.payload.slice(0, Math.floor(wire.payload.length / 2)) }
          : wire,
    };
    return {
      for: (operations) => (operations.includes(operation) ? [modifier] : []),
      list: () => [`${operation} answered with a truncated body`],
    };
  };
}

/** Modifiers of one scenario: answer the first request of an operation with a 401. */
function firstRefused(operation: OperationId): () => ActiveModifiers {
  return () => {
    let refused = false;
    const modifier: Modifier = {
      reply: (reply) => {
        if (refused) return reply;
        refused = true;
        return { status: 401, body: operationOutcome('MSG_UNAUTHORISED', 'The access token has expired') };
      },
    };
    return {
      for: (operations) => (operations.includes(operation) ? [modifier] : []),
      list: () => [`first ${operation} refused with 401`],
    };
  };
}

export const SCENARIOS: readonly Scenario[] = [
  {
    id: 'find-member-two-step',
    title: 'Find Member version 2, two steps (Document 1, 4.2)',
    instructions: [
      'Search for a member with insurer nuh, first initial A, last name Jones, born 1975-09-30.',
      'Several members match: when the answer is MULTIPLE_MATCH_FOUND, refine the search with sex Female, postcode AB1 2CD and policy active on 2026-06-01.',
    ],
    operations: ['find-member-v2'],
    waitingFor: 'a Find Member version 2 search answered 200 (after MULTIPLE_MATCH_FOUND, the refined search)',
    complete: (xs) => of(xs, 'find-member-v2').some((x) => x.status === 200),
    flow: [
      {
        check: clientRefinesAfterMultipleMatch,
        level: 'MUST',
        requirements: ['D1-4.2-15'],
        operation: 'find-member-v2',
      },
      { check: clientNoBlindRetry, level: 'SHOULD', requirements: ['D1-7-25'], operation: 'find-member-v2' },
    ],
  },
  {
    id: 'batch-cycle',
    title: 'Remittance batches: list, get, acknowledge after import (Document 1, 4.6 to 4.8)',
    instructions: [
      'List the pending remittance batches of the site, fetch one (BATCH-1002 is LIVE), import it, then acknowledge it.',
    ],
    operations: ['list-pending-remittances', 'get-remittance-details', 'ack-remittance'],
    waitingFor:
      'an acknowledgement (DELETE) of a batch answered 200, after listing the pending batches and fetching it',
    complete: (xs) => of(xs, 'ack-remittance').some((x) => x.status === 200),
    flow: [
      {
        check: clientFetchesListedBatch,
        level: 'MUST',
        requirements: ['D1-4.7-04'],
        operation: 'ack-remittance',
      },
      {
        check: clientAcknowledgesAfterGet,
        level: 'MUST',
        requirements: ['D1-4.8-04'],
        operation: 'ack-remittance',
      },
      { check: clientNoBlindRetry, level: 'SHOULD', requirements: ['D1-7-25'], operation: 'get-remittance-details' },
    ],
  },
  {
    id: 'patient-create',
    title: 'Create a patient (Document 3, 4.4)',
    instructions: [
      'Sign the user in (password grant with the user below) and create a patient: Mrs Priya Patel, female, born 1984-07-19.',
    ],
    operations: ['create-patient'],
    waitingFor: 'a create patient answered 201 or 200',
    complete: (xs) => of(xs, 'create-patient').some((x) => x.status === 201 || x.status === 200),
    flow: [],
  },
  {
    id: 'patient-lifecycle',
    title: 'A patient from create to delete, with a condition (Document 3, 4.4)',
    instructions: [
      'Sign the user in (password grant with the user below) and create a patient: Mrs Priya Patel, female, born 1984-07-19.',
      'Read the patient by the id the create answered, update it (the body carries that id; add a phone number), add a condition whose note names the patient (patient/<id>), delete the condition, then delete the patient.',
    ],
    operations: [
      'create-patient',
      'get-patient',
      'update-patient',
      'create-condition',
      'delete-condition',
      'delete-patient',
    ],
    waitingFor:
      "a delete patient answered with a success, after the create, read, update and the condition's create and delete",
    complete: (xs) => of(xs, 'delete-patient').some((x) => x.status >= 200 && x.status < 300),
    flow: [
      {
        check: clientUsesCreatedPatientId,
        level: 'MUST',
        requirements: ['D3-4.4-22'],
        // Filed under the create (whose answered id it is), so that a certification of
        // patient-create alone reports the row as left out by choice, not as never judged.
        operation: 'create-patient',
      },
    ],
  },
  {
    id: 'address-drill-down',
    title: 'Address search, drill-down and retrieve by key (Document 2, 4.6 and 4.7)',
    instructions: [
      'With a client-credentials token, search addresses with the text "Downing Street".',
      'Drill down: repeat the search with the key of a non-Address item (as `container`) until an item of type Address appears, then retrieve that item by its key, sending each | as %7C.',
    ],
    operations: ['search-address', 'retrieve-address'],
    waitingFor: 'a retrieve address, after drilling down to an item of type Address',
    complete: (xs) => of(xs, 'retrieve-address').length > 0,
    flow: [
      {
        check: clientRetrievesAddressItem,
        level: 'MUST',
        requirements: ['D2-4.6-07'],
        operation: 'retrieve-address',
      },
    ],
  },
  {
    id: 'register-paging',
    title: 'Page through a register practitioner search to its last page (Document 2, 2.1 and 4.9; DEC-C-04)',
    instructions: [
      'With a client-credentials token, search the private-practice register for practitioners with count=10 and collect every page: request page 1, 2, ... until the last page (the paging tags page, count, maxCount and the Bundle total tell), then stop.',
    ],
    operations: ['search-register-practitioners'],
    waitingFor: 'a register practitioner search that answered its last page',
    complete: (xs) => lastPageReached(of(xs, 'search-register-practitioners')),
    // A client that stops early stops: judged once it has been quiet.
    mayStop: (xs) => of(xs, 'search-register-practitioners').length > 0,
    flow: [
      {
        check: clientPagesToLastPage,
        level: 'SHOULD',
        requirements: ['D2-4.9-18'],
        operation: 'search-register-practitioners',
      },
    ],
  },
  {
    id: 'token-revoke-and-logout',
    title: 'Token details, revoke and logout (Document 3, 4.2 and 5)',
    instructions: [
      'Sign the user in (password grant with the user below).',
      'Ask for the token details of an identity-provider sign-in (idp nhs, redirect_uri https://app.example/callback) with Basic client authentication, never a bearer token.',
      "Revoke the user's refresh token (Basic client authentication, headers ClientId and secret, form field token, token_type_hint refresh_token); sign the user in again and log out.",
    ],
    operations: ['get-idp-token-details', 'revoke-token', 'logout'],
    waitingFor: 'token details, a revoke answered 200 and a logout answered 200',
    complete: (xs) =>
      of(xs, 'get-idp-token-details').length > 0 &&
      of(xs, 'revoke-token').some((x) => x.status === 200) &&
      of(xs, 'logout').some((x) => x.status === 200),
    flow: [{ check: clientRevokeNamesClient, level: 'MUST', requirements: ['D3-5-05'], operation: 'revoke-token' }],
  },
  {
    id: 'expired-token',
    title: 'A refused token: the first Find Member answered 401 (Document 3, 5; DEC-C-01)',
    instructions: [
      'Search for the member with insurer ppp, first initial J, last name Smith, born 1980-04-12.',
      'The first answer is HTTP 401 (the token has expired): obtain a new token before trying again, or stop.',
    ],
    operations: ['find-member-v2'],
    waitingFor: 'a second Find Member version 2 search, with a new token, after the 401 (or a stop after the first)',
    modifiers: firstRefused('find-member-v2'),
    complete: (xs) => of(xs, 'find-member-v2').length >= 2,
    mayStop: (xs) => of(xs, 'find-member-v2').length === 1,
    flow: [{ check: clientNoBlindRetry, level: 'SHOULD', requirements: ['D1-7-25'], operation: 'find-member-v2' }],
  },
  {
    id: 'malformed-answer',
    title: 'An unreadable answer: the pending batch list arrives cut short (DEC-C-05)',
    instructions: [
      'Run the batch cycle (list the pending batches, fetch one, acknowledge it). The list arrives with a body cut short: the client must not act as if it had read it (stopping is allowed).',
    ],
    operations: ['list-pending-remittances', 'ack-remittance'],
    waitingFor: 'an acknowledgement of a batch, or a stop after the unreadable pending list',
    modifiers: truncatedAnswers('list-pending-remittances'),
    complete: (xs) => of(xs, 'ack-remittance').length > 0,
    mayStop: (xs) => of(xs, 'list-pending-remittances').length > 0,
    flow: [
      {
        check: clientFetchesListedBatch,
        level: 'MUST',
        requirements: ['D1-4.7-04'],
        operation: 'ack-remittance',
      },
      // D1 1: the caller "fetches one batch, and acknowledges (receipts) it after import", whatever
      // the list looked like (DEC-C-05): an acknowledgement without a get of that batch is a MUST failure.
      {
        check: clientAcknowledgesAfterGet,
        level: 'MUST',
        requirements: ['D1-4.8-04'],
        operation: 'ack-remittance',
      },
      {
        check: clientNoActionOnMalformedAnswer,
        level: 'SHOULD',
        requirements: ['D1-4.6-07'],
        operation: 'ack-remittance',
      },
    ],
  },
];

export const scenario = (id: string): Scenario | undefined => SCENARIOS.find((s) => s.id === id);

/**
 * True when the scenario calls an operation reserved for the operator's own products (D1-1-10,
 * D2 and D3 likewise): a partner's client may not run it, so it is left out of a partner's
 * certification unless named.
 */
export const isOperatorOnly = (s: Scenario): boolean => s.operations.some((id) => operationOf(id).reservedForOperator);
