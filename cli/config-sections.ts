// The config in sections per subsystem, each typed as what its consumer takes (the way Yellowstone's
// `ConfigGrpc.filter_limits` is the filter module's own `FilterLimits`): each part's section (its options file)
// builds its value; this file only composes them, so the role wiring (cli/wire-*.ts) hands a section over as it
// is, with no field-by-field copy, cast or non-null assertion.
import { API_SECTION, type ApiSection } from '../api/options.js';
import { INGEST_SECTION, type IngestSection } from '../ingest/options.js';
import { CLICKHOUSE_SECTION } from '../platform/clickhouse-options.js';
import type { ClickHouseOptions } from '../platform/clickhouse.js';
import { KAFKA_SECTION, type KafkaSection } from '../platform/kafka/options.js';
import type { Role } from '../platform/options.js';
import { PROCESS_SECTION, type ProcessSection } from '../platform/process-options.js';
import { PUMP_TABLES_SECTION } from '../platform/pump-tables-options.js';
import type { PumpTableFiles } from '../platform/pump-tables.js';
import { PROJECTOR_SECTION, type ProjectorSection } from '../projector/options.js';
import type { Config } from './config.js';

export interface ConfigSections extends ProcessSection {
  role: Role;
  kafka: KafkaSection;
  clickhouse: ClickHouseOptions;
  ingest: IngestSection;
  /** The decoder tables' files (platform/pump-tables.ts; '' for the bundled ones). */
  pumpTables: PumpTableFiles;
  projector: ProjectorSection;
  api: ApiSection;
}

export const kafkaSection = (c: Config): KafkaSection => KAFKA_SECTION.value(c);
export const ingestSection = (c: Config): IngestSection => INGEST_SECTION.value(c);
export const projectorSection = (c: Config): ProjectorSection => PROJECTOR_SECTION.value(c);
export const apiSection = (c: Config): ApiSection => API_SECTION.value(c);

/** The whole config in sections (pure; the flat config stays what flags, env and makeConfig build). */
export function configSections(c: Config): ConfigSections {
  return {
    role: c.role,
    kafka: kafkaSection(c),
    clickhouse: CLICKHOUSE_SECTION.value(c),
    ingest: ingestSection(c),
    pumpTables: PUMP_TABLES_SECTION.value(c),
    projector: projectorSection(c),
    api: apiSection(c),
    ...PROCESS_SECTION.value(c),
  };
}
