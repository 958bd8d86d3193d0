// The public surface of core: the page, workers and the CLI import from here.
export type { ProjectAnalysis } from './analyze.ts';
export { analyzeProject } from './analyze.ts';
export type { LoadNote } from './bundle.ts';
export { BUNDLE_FORMAT, parseBundle, projectFromFiles, toBundle } from './bundle.ts';
export type { CelContext, CelProblem, CompiledExpression } from './cel.ts';
export { CEL_VARIABLES, checkCel, compileCel, isCelProblem } from './cel.ts';
export type { Diagnostic, Severity, Span } from './diagnostics.ts';
export { LineIndex, countBySeverity, sortDiagnostics } from './diagnostics.ts';
export type { CandidatePolicy } from './extract.ts';
export type { ToolInfo } from './extract/toolLinks.ts';
export { addPoliciesToYaml, extractPolicies, newCandidates, policyEntry } from './extract.ts';
export type * from './format/model.ts';
export type { ParsedProject } from './format/parseProject.ts';
export { parseProject } from './format/parseProject.ts';
export { MAX_FILE_BYTES, MAX_PROJECT_BYTES, TOO_LARGE, fileTooLarge } from './format/limits.ts';
export { lintProject } from './lint/lint.ts';
export type { PolicyCoverage } from './lint/coverage.ts';
export { judgeOnlyPolicies, policyCoverage } from './lint/coverage.ts';
export type {
  ExampleInfo,
  ExampleLibrary,
  KeyValueStore,
  ProjectRepository,
  ProjectSummary,
  RunRepository,
  Scheduler,
  StoredProject,
  StoredRun,
} from './ports.ts';
export type {
  GraphLayout,
  Project,
  ProjectFileInfo,
  ProjectFileLanguage,
  ProjectFileName,
} from './project.ts';
export {
  MAX_LAYOUT_COORDINATE,
  MAX_PROJECT_NAME_LENGTH,
  PROJECT_FILES,
  createProject,
  droppedPositionsNote,
  isProjectFileName,
  normalizeProjectName,
  projectFileNamed,
  projectHash,
  readLayout,
  sameLayout,
} from './project.ts';
export type {
  ExtrasMerge,
  FileMerge,
  ProjectExtras,
  Recovery,
  TabChannel,
  TabMessage,
  UnsavedEdits,
  UnsavedJournal,
} from './unsaved.ts';
export {
  fingerprint,
  mergeExtras,
  mergeFiles,
  readTabMessage,
  readUnsavedEdits,
  recoverEdits,
  unsavedEdits,
} from './unsaved.ts';
export type { GuardContext, GuardDecision, PastCall, RuleTrace, ToolCall } from './rules/guards.ts';
export { decideToolCall } from './rules/guards.ts';
export type { CompletionItem } from './ide/completion.ts';
export { completionsAt } from './ide/completion.ts';
export { checkKindHover, hoverText } from './ide/hover.ts';
export { promptPlaceHover } from './ide/promptPlaces.ts';
export { emptyArguments } from './ide/toolArguments.ts';
export type { Occurrence, SymbolKind, SymbolName } from './ide/symbols.ts';
export { definitionOf, symbolAt, wordAt } from './ide/symbols.ts';
export { referencesOf, renameSymbol } from './ide/references.ts';
export { appendToTopLevelSequence } from './format/yamlEdit.ts';
export { guardRuleIdSpan } from './format/ruleSpan.ts';
export type { EditHistory, EditOrigin, HistoryEntry, HistoryMove, TextChange } from './history.ts';
export { EMPTY_HISTORY, canStep, diffText, recordEdit, redoStep, undoStep } from './history.ts';
export type * from './graph/types.ts';
export type { Adjacency, BuildGraphOptions } from './graph/build.ts';
export { adjacencyOf, buildGraph } from './graph/build.ts';
export type { HeuristicPolicy } from './graph/heuristic.ts';
export { HEURISTIC, heuristicEdges } from './graph/heuristic.ts';
export { heuristicRankAgreement, spearman } from './graph/rankAgreement.ts';
export type {
  RatedRelation,
  RelateBatch,
  RelateCache,
  RelatePolicy,
  RelationRating,
} from './assist/relate.ts';
export type {
  AssistCost,
  AssistEstimate,
  AssistPlanSize,
  AssistSpent,
} from './assist/assistCost.ts';
export {
  NOTHING_SPENT,
  withUsage,
  estimateAssist,
  meteredContext,
  tokensOf,
} from './assist/assistCost.ts';
export type { AssistAction, AssistTotals, AssistUsage } from './assist/assistLog.ts';
export {
  ASSIST_ACTIONS,
  ASSIST_ACTION_NAMES,
  assistLogId,
  assistTotals,
  assistUsageOf,
  readAssistLog,
} from './assist/assistLog.ts';
export {
  RELATE_CACHE_KEY,
  keptRelateCache,
  pairKeysOf,
  readRelateCache,
  writeRelateCache,
} from './assist/relateCacheStore.ts';
export type { RelateDeps, RelateOutcome } from './assist/relateRun.ts';
export { rateRelations } from './assist/relateRun.ts';
export {
  RELATE_ASKS,
  RELATE_MAX_PER_CALL,
  currentRatings,
  sizeRelate,
  planRelate,
  relatePairKey,
  relatePolicyKey,
  relatePrompt,
} from './assist/relate.ts';
export type { Rng } from './graph/random.ts';
export { createRng } from './graph/random.ts';
export type { SampleReport, UnreachableLevels } from './graph/sample.ts';
export { samplePolicies, sampleWithReport } from './graph/sample.ts';
export type { PolicySpan } from './graph/locate.ts';
export { policyAtOffset, policySpans } from './graph/locate.ts';
export type { GraphEditResult, NewPolicy, PolicyField, RelationWrite } from './graph/edits.ts';
export {
  addPolicy,
  deletePolicy,
  removeRelation,
  setPolicyField,
  setRelation,
  setRelations,
} from './graph/edits.ts';
export type { TextSplice } from './format/yamlEdit.ts';
export { applySplices } from './format/yamlEdit.ts';
export type { EdgeStyle, GraphTheme, ThemeColors } from './graph/palette.ts';
export {
  CATEGORY_COLOR_COUNT,
  categoryColor,
  edgeStyle,
  edgeWidth,
  nodeRadius,
  themeColors,
} from './graph/palette.ts';
export { heatColor, heatStops, untestedColor } from './graph/heat.ts';
export type { SvgOptions } from './graph/svg.ts';
export { graphToSvg } from './graph/svg.ts';
export type {
  LabelImportance,
  LabelNode,
  LabelOptions,
  LabelSide,
  PlacedLabel,
  Rect,
} from './graph/labels.ts';
export { fitText, overlaps, placeLabels } from './graph/labels.ts';
export { LABEL_FONT_FAMILY, approximateTextWidth } from './graph/textWidth.ts';
export type { FitNode, FitOptions, Viewport } from './graph/fit.ts';
export { fitViewport } from './graph/fit.ts';
export type { LayoutInput, LayoutOptions, LayoutResult, Point } from './graph/layout.ts';
export { layoutGraph } from './graph/layout.ts';
export { sameGraph } from './graph/same.ts';
export type {
  Cancellation,
  ChatDelta,
  ChatEngine,
  ChatMessage,
  ChatOptions,
  ChatRequest,
  ChatResponse,
  ChatToolCall,
  FinishReason,
  ModelRole,
  ToolChoice,
  ToolSpec,
  Usage,
} from './models/chat.ts';
export { MODEL_ROLES } from './models/chat.ts';
export type { ModelErrorKind } from './models/errors.ts';
export { ModelError, classifyHttpError, parseRetryAfter } from './models/errors.ts';
export type { RetryPolicy, RetryRuntime } from './models/retry.ts';
export { DEFAULT_RETRY, backoffDelay, withDeadline, withRetries } from './models/retry.ts';
export type { ModelPrice, PriceTable, UsageLedger } from './models/usage.ts';
export { EMPTY_LEDGER, addUsage, callCost, spendingWords } from './models/usage.ts';
export { countedUsage, estimateTokens, isTokenCount, requestTokens } from './models/usageCheck.ts';
export type { CheckedChatOptions, CheckedResponse } from './models/checked.ts';
export { checkResponse, checkedChat } from './models/checked.ts';
export type { ConnectionReport } from './models/connectionTest.ts';
export { CONNECTION_TEST_TOOL, testConnection } from './models/connectionTest.ts';
export type { EndpointConfig, EndpointKind, ModelSettings, RoleModel } from './models/settings.ts';
export {
  DEFAULT_MODEL_SETTINGS,
  DEFAULT_PRICES,
  ENDPOINT_KINDS,
  ENDPOINT_PRESETS,
  LOCAL_ENGINE,
  checkBaseUrl,
  readModelSettings,
} from './models/settings.ts';
export type { CatalogueModel } from './models/catalogue.ts';
export { MODEL_CATALOGUE, catalogueModel } from './models/catalogue.ts';
export type { DownloadProgress } from './models/progress.ts';
export { DownloadMeter, formatBytes, formatDuration } from './models/progress.ts';
export type {
  Database,
  Finding,
  FindingState,
  MarkTarget,
  PromptUse,
  RowChange,
  RunSource,
  SimEvent,
  SimEventType,
  SimScenario,
  Speaker,
  StartingData,
  TerminationReason,
} from './sim/events.ts';
export {
  ENDING_LABELS,
  ERROR_ENDINGS,
  LOG_VERSION,
  NOTHING_EXPECTED,
  findingState,
  PERSON,
} from './sim/events.ts';
export type { LogMigration, ReadLog } from './sim/logFormat.ts';
export { LOG_MIGRATIONS, readLog } from './sim/logFormat.ts';
export type { PlannedRun, RunRequest } from './sim/plan.ts';
export { DEFAULT_TIME_LIMIT_MS, judgeDecidedPolicies, planRun } from './sim/plan.ts';
export { DEFAULT_MAX_TOOL_ROUNDS, MOST_TOOL_ROUNDS } from './sim/limits.ts';
export type { DialoguePrefix, ForkPoint, ForkState, PrefixEvent } from './sim/fork.ts';
export { continuedPrefix, copyPrefix, dialoguePrefix, forkState } from './sim/fork.ts';
export type { LogSink, RecorderOptions, RunRecorder } from './sim/recorder.ts';
export { createRecorder, runClock } from './sim/recorder.ts';
export type { CallContext } from './sim/modelCall.ts';
export { loggedChat } from './sim/modelCall.ts';
export type { LevelBand } from './graph/levels.ts';
export { DEFAULT_LEVELS, formatLevelBand, parseLevelBand } from './graph/levels.ts';
export type {
  PromptId,
  PromptInfo,
  PromptKey,
  PromptPlace,
  PromptPlanKey,
  PromptSource,
  PromptTemplate,
  RunPrompts,
} from './sim/prompts.ts';
export type { FixedMessage } from './sim/prompts.ts';
export {
  ASK_USER_PROMPT,
  CHAT_OPENS,
  FIXED_MESSAGES,
  PROMPT_TEMPLATES,
  USER_SIMULATOR_PROMPT,
  USER_STOP,
  placesIn,
  projectPrompts,
  promptInfo,
  renderPrompt,
} from './sim/prompts.ts';
export type { PromptEdit } from './format/promptEdits.ts';
export { removePromptOverride, setPromptOverride } from './format/promptEdits.ts';
export { describeChange, diffDatabases, seedDatabase, validateRow } from './sim/database.ts';
export type { ToolOutcome } from './sim/toolRuntime.ts';
export { runTool } from './sim/toolRuntime.ts';
export type { DialogueDeps, DialogueLimits, DialogueResult, Player } from './sim/dialogue.ts';
export { DEFAULT_LIMITS, runDialogue } from './sim/dialogue.ts';
export type { RunDeps, RunPlan } from './sim/run.ts';
export { dialogueId, runSimulation, startingData } from './sim/run.ts';
export type { Transcript, TranscriptCall, TranscriptMessage } from './sim/transcript.ts';
export { describeCall, ordinal, readerTurns, transcriptOf, turnLabel } from './sim/transcript.ts';
export type {
  PolicyDialogue,
  PolicyResult,
  PolicyVerdict,
  RunResults,
} from './sim/policyResults.ts';
export { failureRate, pairKey, policyResults } from './sim/policyResults.ts';
export type { DialogueFilter, DialogueRow, FilterChoices } from './sim/dialogueIndex.ts';
export { dialogueIndex, filterChoices, filterDialogues } from './sim/dialogueIndex.ts';
export type { AlignedRow, Alignment, WordSegment } from './sim/align.ts';
export { DIFF_WORD_CAP, alignDialogues, diffWords } from './sim/align.ts';
export type { DialogueJson } from './sim/dialogueExport.ts';
export { DIALOGUE_FORMAT, dialogueJson, dialogueMarkdown } from './sim/dialogueExport.ts';
export { dialogueToSvg, wrapText } from './sim/dialogueSvg.ts';
export type { StandaloneRun } from './sim/standalone.ts';
export {
  STANDALONE_RUN_ID,
  readStandaloneRun,
  standaloneFileName,
  standaloneRunHtml,
} from './sim/standalone.ts';
export type { Agreement } from './sim/agreement.ts';
export { readAgreement } from './sim/agreement.ts';
export { dialogueVerdict, attemptFindings, runChecks } from './sim/judging.ts';
export type { Grounds } from './sim/grounded.ts';
export { groundsOf } from './sim/grounded.ts';
export { checkExpectations, passesWithoutAgent } from './sim/expectations.ts';
export type { Interval, PassRate } from './sim/metrics.ts';
export { passHatK, passRate, wilson } from './sim/metrics.ts';
export type { DialogueReport, PolicyFacts, RunReport, Verdict } from './sim/report.ts';
export type { GenerationFailureReport, GenerationReport } from './sim/generationReport.ts';
export { generationOf } from './sim/generationReport.ts';
export { reportOf } from './sim/report.ts';
export type { Change, Flip, RateComparison, RateDifference, RunComparison } from './sim/compare.ts';
export { changeOf, compareRuns, rateDifference, regressions } from './sim/compare.ts';
export type { ProjectChanges } from './sim/projectChanges.ts';
export { projectChanges } from './sim/projectChanges.ts';
export type { DiffHunk, DiffLine, FileDiff } from './fileDiff.ts';
export { diffFiles, diffLines, fileChangeSummary, unifiedDiff } from './fileDiff.ts';
export type { Recheck } from './sim/recheck.ts';
export { recheckRun } from './sim/recheck.ts';
export type { GuardWhatIf, GuardWhatIfs } from './sim/guardWhatIf.ts';
export { guardWhatIf } from './sim/guardWhatIf.ts';
export type { ToolWhatIf } from './sim/toolWhatIf.ts';
export { comparisonMarkdown, csvField, reportCsv, reportMarkdown } from './sim/reportText.ts';
export type { Shard } from './sim/shard.ts';
export { MAX_SHARDS, inShard, jobKey, mergeRunLogs, parseShard, shardOf } from './sim/shard.ts';
export type { PolicyChallenges } from './sim/scenarios.ts';
export { handWrittenScenarios, scenarioProblems } from './sim/scenarios.ts';
export type { GenerateDeps, GenerationFailure, ScenarioSample } from './sim/generate.ts';
export { generateScenario, generateScenarios } from './sim/generate.ts';
export type { JudgeDeps, JudgeResult, JudgeVerdict } from './sim/judge.ts';
export { judgeDialogue, renderTranscript } from './sim/judge.ts';
export {
  ASSERTION_JUDGE_PROMPT,
  DEFAULT_PERSONA,
  POLICY_JUDGE_PROMPT,
  SCENARIO_GENERATOR_PROMPT,
  personaOf,
} from './sim/prompts.ts';
export { RELATE_PROMPT } from './assist/relatePrompt.ts';
export type { AssertionJudgeDeps, AssertionJudgeResult } from './sim/assertionJudge.ts';
export { judgeAssertions } from './sim/assertionJudge.ts';
export type { AssertionContext, AssertionOpinion } from './sim/assertionOpinions.ts';
export { assertionOpinions } from './sim/assertionOpinions.ts';
export type { ArgDifference } from './sim/actionMatch.ts';
export { argDifferences, jsonEqual, requiredWithArgs } from './sim/actionMatch.ts';
export type { HumanSeat, SeatReply, SeatTurn } from './sim/seat.ts';
export { createHumanSeat, lastWords, seatQuestion } from './sim/seat.ts';
export type {
  Pinned,
  Replay,
  ReplayFault,
  ReplayMarks,
  ReplayOpinion,
  ReplayStep,
  ReplayStepKind,
  StartTables,
  ToolPolicies,
} from './sim/replay.ts';
export type { RowMark, SettledAt, TableAt } from './sim/replayFrame.ts';
export { changesUpTo, databaseAt, settledAt } from './sim/replayFrame.ts';
export { firstStepFor, nextStep, quoteSpan, replayOf, stepOfTurn } from './sim/replay.ts';
export type { SharedLink, ShareMigration, ShareView } from './share/link.ts';
export {
  SHARE_LIMITS,
  SHARE_LINK_VERSION,
  SHARE_MIGRATIONS,
  decodeShareLink,
  encodeShareLink,
  isShareLink,
  migrateSharePayload,
  shareUrl,
} from './share/link.ts';
export type { GunzippedLog, UnzippedProject } from './share/archive.ts';
export {
  ARCHIVE_LIMITS,
  LAYOUT_FILE,
  gunzipLog,
  gzipLog,
  unzipProject,
  zipProject,
} from './share/archive.ts';
export * from './import/index.ts';
export type {
  AttackDeps,
  AttackFailure,
  AttackPair,
  AttackRequest,
  AttackResult,
} from './assist/attack.ts';
export { attackPrompt, generateAttacks, sizeAttacks } from './assist/attack.ts';
export type { AttackScenario, ScenariosEdit } from './assist/attackYaml.ts';
export { acceptScenarios, appendScenarios, attackScenarioValue } from './assist/attackYaml.ts';
export type { AttackTactic } from './format/attackTags.ts';
export {
  ADVERSARIAL_TAG,
  ATTACK_TACTICS,
  CONTRASTIVE_TAG,
  hasTag,
  isAttackTactic,
} from './format/attackTags.ts';
export type { AttackReport, FalseAlarm, TacticResult, TwinFault } from './sim/attackReport.ts';
export { attackReportOf, twinBreachFault } from './sim/attackReport.ts';
export type { Guardability } from './assist/guardable.ts';
export { guardability, guardablePolicies } from './assist/guardable.ts';
export type { DraftCheck, DraftExample, ExampleVerdict, GuardDraft } from './assist/guardCheck.ts';
export { checkDraft, draftRule, withGuardRule } from './assist/guardCheck.ts';
export type { GuardDraftDeps, GuardDraftResult } from './assist/guardDraft.ts';
export { draftGuard, guardDraftPrompt, sizeGuardDraft } from './assist/guardDraft.ts';
export type { GuardEdit } from './assist/guardEdit.ts';
export { addGuardRule } from './assist/guardEdit.ts';
