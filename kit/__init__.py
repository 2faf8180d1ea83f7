"""The kernel every layer imports: errors, ids, value objects (`model`), the DAG and the family kit, difficulty
axes, the registry, bounded readers and the parse cache, scratch space, the sandbox, text safety, the JSON grammar,
packages on disk, the taxonomy's data and the LLM interface (`kit.llm`: the request/response types and the offline
backend). It imports nothing above it: folder order is import order,
kit < preparers < verifiers < workflows < forge (the application and its CLI).
"""
