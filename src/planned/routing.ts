/**
 * What makes a read task more than a simple read. The planner may declare the first three; the
 * plan's shape adds `has_dependency` (it reads after other tasks) and `multiple_managers` itself.
 */
export const routingFeatures = ['has_dependency', 'requires_calculation', 'multiple_queries', 'multiple_managers'] as const;
export type RoutingFeature = (typeof routingFeatures)[number];

/** The features a planner may declare on a task. */
export const declaredRoutingFeatures = ['has_dependency', 'requires_calculation', 'multiple_queries'] as const satisfies readonly RoutingFeature[];

export type ExecutorRole = 'simpleExecutor' | 'complexExecutor';

/** A task's features: those declared and those its shape shows, in the order of `routingFeatures`. */
export function featuresOf(task: { readonly routing: readonly RoutingFeature[]; readonly managers: readonly string[]; readonly dependsOn: readonly string[] }): RoutingFeature[] {
  const found = new Set<RoutingFeature>(task.routing);
  if (task.dependsOn.length > 0) found.add('has_dependency');
  if (task.managers.length > 1) found.add('multiple_managers');
  return routingFeatures.filter((feature) => found.has(feature));
}

/** The simple executor takes a task only when nothing about it is complex. */
export function executorRole(features: readonly RoutingFeature[]): ExecutorRole {
  return features.length === 0 ? 'simpleExecutor' : 'complexExecutor';
}
