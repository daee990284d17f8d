/**
 * Runs one server workload (a module with `kind = "server"` and `measure()`) in this fresh
 * process and prints its figures as one JSON line. The workload forks its own server process.
 */
const [workloadName] = process.argv.slice(2);
const workload = await import(`./workloads/${workloadName}.mjs`);
if (workload.kind !== "server") throw new Error(`${workloadName} is not a server workload`);
const figures = await workload.measure();
process.stdout.write(`${JSON.stringify(figures)}\n`);
