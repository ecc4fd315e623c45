/**
 * Every check (DESIGN.md, "The unit of work: a check"), one per file. Factories return a check
 * whose id is the same for all parameters.
 */
export { acknowledgedBatchGone } from './acknowledgedBatchGone.ts';
export { batchBelongsToSite } from './batchBelongsToSite.ts';
export { bodyIsJson } from './bodyIsJson.ts';
export { bundleHasEntries } from './bundleHasEntries.ts';
export { bundleTypeIs } from './bundleTypeIs.ts';
export { contentTypeIsJson } from './contentTypeIsJson.ts';
export { coverageMatchesSearch, type MemberSearch } from './coverageMatchesSearch.ts';
export { coverageReferencesResolve } from './coverageReferencesResolve.ts';
export { cuidContiguousPerProvider } from './cuidContiguousPerProvider.ts';
export { emptyBody } from './emptyBody.ts';
export { encounterLinksClaim } from './encounterLinksClaim.ts';
export { entriesMatchFilter, type EntryFilterOptions } from './entriesMatchFilter.ts';
export { entriesSorted, type EntrySortOptions } from './entriesSorted.ts';
export { extensionCardinality, type ExtensionCardinality } from './extensionCardinality.ts';
export { extensionsPresent } from './extensionsPresent.ts';
export { errorCodesOf, errorStatusAndCode, type StatusAndCode } from './errorStatusAndCode.ts';
export { filteredComplete, type FilteredAndExpected } from './filteredComplete.ts';
export { filteredSubset, type FilteredAndAll } from './filteredSubset.ts';
export { invalidIdAnswer } from './invalidIdAnswer.ts';
export { invalidIdNamesId } from './invalidIdNamesId.ts';
export { matchesSchema } from './matchesSchema.ts';
export { memberDistinctAcross, type DistinctAcross } from './memberDistinctAcross.ts';
export { membersPresent } from './membersPresent.ts';
export { operationOutcomeShape } from './operationOutcomeShape.ts';
export { outcomeHasDiagnostics } from './outcomeHasDiagnostics.ts';
export { outcomeIssuesHave } from './outcomeIssuesHave.ts';
export { pagesDoNotOverlap, type PageWalk } from './pagesDoNotOverlap.ts';
export { pageWithinCount } from './pageWithinCount.ts';
export { pagingTagsMatchRequest, type PagingRequest } from './pagingTagsMatchRequest.ts';
export { pagingTagsPresent } from './pagingTagsPresent.ts';
export { requestRefused } from './requestRefused.ts';
export { someEntryMatches } from './someEntryMatches.ts';
export { sortOrdersReverse, type OppositeSorts } from './sortOrdersReverse.ts';
export { successStatus } from './successStatus.ts';
export { totalConsistent, type CompletedWalk } from './totalConsistent.ts';
// Document 2
export { addressKeyMatches } from './addressKeyMatches.ts';
export { arrayHasItem } from './arrayHasItem.ts';
export { arrayLengthIs } from './arrayLengthIs.ts';
export { codesSubset, type NarrowedAndAll } from './codesSubset.ts';
export { controlParametersComplete } from './controlParametersComplete.ts';
export { coversAll, type DistinctCoverage } from './coversAll.ts';
export { distinctBy } from './distinctBy.ts';
export { geocodePositionValid } from './geocodePositionValid.ts';
export { includedResourcesPresent } from './includedResourcesPresent.ts';
export { mediaTypeIs } from './mediaTypeIs.ts';
export { noIncludedResources } from './noIncludedResources.ts';
export { notServerError } from './notServerError.ts';
export { documentedCodeHasItsStatus } from './documentedCodeHasItsStatus.ts';
export { photoDataMatchesSize } from './photoDataMatchesSize.ts';
export { postcodeValidationAnswer, type PostcodeExpectation } from './postcodeValidationAnswer.ts';
export { singleEntryWithId } from './singleEntryWithId.ts';
export { statusIs } from './statusIs.ts';
export { valueSetItemsMatch } from './valueSetItemsMatch.ts';
export { valueSetPageWithinCount } from './valueSetPageWithinCount.ts';
export { valueSetPagingConsistent, type ValueSetWalk } from './valueSetPagingConsistent.ts';
export { haversineKm, withinRadius, type LatLon, type NearCircle } from './withinRadius.ts';
// Document 3
export { accountsErrorAnswer, type AccountsErrorExpectation } from './accountsErrorAnswer.ts';
export { accountsErrorBody } from './accountsErrorBody.ts';
export { contractAuthoritySubjectRules } from './contractAuthoritySubjectRules.ts';
export { contractHoldsItem, type ContractItem } from './contractHoldsItem.ts';
export { deletedIdOutcome } from './deletedIdOutcome.ts';
export { deletedStatusParameters } from './deletedStatusParameters.ts';
export { diaryListShape } from './diaryListShape.ts';
export { diaryResponseCode } from './diaryResponseCode.ts';
export { effectivePricesProcedureHasService } from './effectivePricesProcedureHasService.ts';
export { patientRoundTrip } from './patientRoundTrip.ts';
export { payorIdsOf, payorsReservedOnce } from './payorsReservedOnce.ts';
export { sitesMatchSearch } from './sitesMatchSearch.ts';
export { sitesV2PagesDisjoint, type SitesWalk } from './sitesV2PagesDisjoint.ts';
export { sitesV2Pagination, type SitesPageRequest } from './sitesV2Pagination.ts';
export { tokenDetailsAnswer } from './tokenDetailsAnswer.ts';
export { tokenDetailsErrorAnswer, type TokenDetailsErrorExpectation } from './tokenDetailsErrorAnswer.ts';
/** Helpers for suites: the key of a code-set item (`system|code`), a role's references. */
export { codeKey } from './valueSet.ts';
export { referenceId, roleReferences, type RoleReferenceField } from './roleReferences.ts';
/** Helpers for suites: the key checks use for a resource (`resourceType/id`). */
export { resourceKey } from './resourceKey.ts';
