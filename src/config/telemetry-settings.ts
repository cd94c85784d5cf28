import { z } from 'zod';

/** OpenTelemetry spans (docs/observability.md): emitted through `@opentelemetry/api`, no-ops until the host registers an SDK. */
export const telemetrySchema = z
  .strictObject({
    /** Record prompts, answers, tool arguments and results on spans. Off: names, counts, models, usage and error codes only. */
    captureContent: z.boolean().default(false),
  })
  .prefault({});

export const telemetrySettingsShape = { telemetry: telemetrySchema } as const;
