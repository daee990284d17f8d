// Generated from schemas/canvas.schema.json by `npm run schemas:compile`; do not edit.
"use strict";
module.exports = validate20;
module.exports.default = validate20;
const schema31 = {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://canvasflow.dev/schemas/canvas.schema.json","title":"canvasflow / RAGFlow agent canvas DSL","description":"The stored canvas DSL as RAGFlow (v0.20+) writes it. Unknown keys are kept, as RAGFlow does. A snapshot written by canvasflow also carries the run state under `canvasflow`.","type":"object","required":["components"],"properties":{"components":{"description":"The executable topology, keyed by component id. The start component has the id \"begin\".","type":"object","minProperties":1,"propertyNames":{"minLength":1},"additionalProperties":{"$ref":"#/$defs/componentEntry"}},"path":{"description":"Component ids still to run (the frontier of a paused run). RAGFlow also stores the executed path here.","type":"array","items":{"type":"string"}},"history":{"description":"Conversation turns as [role, content] pairs.","type":"array","items":{"type":"array","minItems":2,"maxItems":2,"prefixItems":[{"type":"string"},true]}},"retrieval":{"description":"Per-run reference buckets {chunks, doc_aggs}. Old fixtures store one object instead of a list.","type":["array","object"]},"globals":{"description":"Flat `sys.*` and `env.*` variables (keys contain dots).","type":"object"},"variables":{"description":"Conversation variable declarations, keyed by name or as a list. RAGFlow's editor writes [] when there are none. (additionalProperties applies to the object form, items to the list form.)","type":["object","array"],"additionalProperties":{"$ref":"#/$defs/variableDeclaration"},"items":{"$ref":"#/$defs/variableDeclaration"}},"memory":{"type":"array"},"graph":{"type":"object","properties":{"nodes":{"type":"array","items":{"$ref":"#/$defs/graphNode"}},"edges":{"type":"array","items":{"$ref":"#/$defs/graphEdge"}}}},"task_id":{"type":"string","maxLength":256,"pattern":"^[^\\u0000-\\u001f\\u007f/\\\\]*$","description":"at most 256 printable characters, without / or \\ (the task id names the session's cancel flag; empty before a first run)"},"messages":{"type":"array"},"canvasflow":{"$ref":"run-state.schema.json"}},"$defs":{"componentEntry":{"type":"object","required":["obj"],"properties":{"obj":{"type":"object","required":["component_name","params"],"properties":{"component_name":{"type":"string","minLength":1},"params":{"type":"object"}}},"downstream":{"type":"array","items":{"type":"string"}},"upstream":{"type":"array","items":{"type":"string"}},"parent_id":{"type":["string","null"]}}},"variableDeclaration":{"type":"object","properties":{"name":{"type":"string","pattern":"^[a-zA-Z_0-9]+$"},"type":{"type":"string"},"value":true,"description":{"type":"string"},"reducer":{"type":"string","pattern":"^[A-Za-z][A-Za-z0-9_]*$","description":"canvasflow: how a component's state write (InvokeControl.update) merges into this variable: last (default), add, append, extend, merge, messages, union, or a reducer registered by name"}}},"graphNode":{"type":"object","required":["id"],"properties":{"id":{"type":"string"},"type":{"type":"string"},"parentId":{"type":"string"},"data":{"type":"object","properties":{"label":{"type":"string"},"name":{"type":"string"},"form":{"type":"object"}}}}},"graphEdge":{"type":"object","required":["source","target"],"properties":{"id":{"type":"string"},"source":{"type":"string"},"target":{"type":"string"},"sourceHandle":{"type":["string","null"]},"targetHandle":{"type":["string","null"]}}}}};
const schema32 = {"type":"object","required":["obj"],"properties":{"obj":{"type":"object","required":["component_name","params"],"properties":{"component_name":{"type":"string","minLength":1},"params":{"type":"object"}}},"downstream":{"type":"array","items":{"type":"string"}},"upstream":{"type":"array","items":{"type":"string"}},"parent_id":{"type":["string","null"]}}};
const schema33 = {"type":"object","properties":{"name":{"type":"string","pattern":"^[a-zA-Z_0-9]+$"},"type":{"type":"string"},"value":true,"description":{"type":"string"},"reducer":{"type":"string","pattern":"^[A-Za-z][A-Za-z0-9_]*$","description":"canvasflow: how a component's state write (InvokeControl.update) merges into this variable: last (default), add, append, extend, merge, messages, union, or a reducer registered by name"}}};
const schema35 = {"type":"object","required":["id"],"properties":{"id":{"type":"string"},"type":{"type":"string"},"parentId":{"type":"string"},"data":{"type":"object","properties":{"label":{"type":"string"},"name":{"type":"string"},"form":{"type":"object"}}}}};
const schema36 = {"type":"object","required":["source","target"],"properties":{"id":{"type":"string"},"source":{"type":"string"},"target":{"type":"string"},"sourceHandle":{"type":["string","null"]},"targetHandle":{"type":["string","null"]}}};
const schema37 = {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://canvasflow.dev/schemas/run-state.schema.json","title":"canvasflow run state","description":"The run state a canvasflow snapshot keeps under the DSL's `canvasflow` key. Together with the DSL's path, globals and history it is enough to resume a run in any process.","type":"object","required":["version","status","outputs","component_state","open_containers","steps"],"properties":{"version":{"const":1},"status":{"description":"idle: the next run starts a new turn; paused: the next run resumes with inputs; running: a checkpoint of a run under way, which the next run continues (after a crash); failed/cancelled: the last turn ended early.","enum":["idle","paused","running","failed","cancelled"]},"outputs":{"description":"Component outputs of the current turn, keyed by component id.","type":"object","additionalProperties":{"type":"object","propertyNames":{"not":{"enum":["__proto__","constructor","prototype"]}}},"propertyNames":{"not":{"enum":["__proto__","constructor","prototype"]}}},"component_state":{"description":"Per-component counters (IterationItem and LoopItem rounds).","type":"object"},"open_containers":{"description":"Iterations and Loops that started and have not finished, with their start time in epoch seconds.","type":"object","additionalProperties":{"type":"number"}},"steps":{"description":"Component executions in the current turn.","type":"integer","minimum":0},"pending":{"description":"The explicit pending-input marker of a paused run.","type":"object","required":["components","inputs","tips"],"properties":{"components":{"type":"array","items":{"type":"string"},"minItems":1},"inputs":{"type":"object","additionalProperties":{"type":"object"}},"tips":{"type":"string"},"interrupts":{"description":"Components that paused from inside (ctx.interrupt): each interrupt's id, its component and the value it showed.","type":"array","items":{"type":"object","required":["id","component_id"],"properties":{"id":{"type":"string"},"component_id":{"type":"string"},"value":true}}}}},"reply":{"description":"Message text already shown in a paused turn; it becomes the assistant's history entry when the turn ends.","type":"array","items":{"type":"string"}},"references":{"description":"References gathered in a paused turn that no message_end has carried yet.","type":"object","required":["chunks","doc_aggs"],"properties":{"chunks":{"type":"array","items":{"type":"object"}},"doc_aggs":{"type":"array","items":{"type":"object"}}}},"error":{"type":"string"},"epoch":{"description":"Runs started on this session so far; event ids begin with it.","type":"integer","minimum":0},"executions":{"description":"How often each component ran in the current turn (part of its idempotency key).","type":"object","additionalProperties":{"type":"integer","minimum":0}},"usage":{"description":"Tokens counted in the current turn.","type":"object","required":["prompt_tokens","completion_tokens","total_tokens","calls"],"properties":{"prompt_tokens":{"type":"number","minimum":0},"completion_tokens":{"type":"number","minimum":0},"total_tokens":{"type":"number","minimum":0},"calls":{"type":"number","minimum":0}}},"run":{"description":"Present while status is running: what a process continuing the run needs.","type":"object","required":["message_id","created_at","inputs","receivers"],"properties":{"message_id":{"type":"string"},"created_at":{"type":"number"},"inputs":{"type":"object"},"receivers":{"type":"array","items":{"type":"string"}},"last":{"type":"string"}}},"schedule":{"description":"The scheduling policy's own state while a run is paused or under way: for edge-scheduled graphs (Dify), the edge and node states of every open frame, the ready queue and the containers' rounds. Absent for RAGFlow canvases, whose frontier is the DSL's path.","type":"object"},"traceparent":{"description":"The W3C traceparent of the last run's span, when a tracing SDK recorded it: a run that resumes this one (after a pause, or after its process died) links to it.","type":"string","pattern":"^[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$"}},"if":{"properties":{"status":{"const":"paused"}}},"then":{"required":["pending"]}};
const func1 = require("ajv/dist/runtime/ucs2length").default;
const pattern4 = new RegExp("^[a-zA-Z_0-9]+$", "u");
const pattern5 = new RegExp("^[A-Za-z][A-Za-z0-9_]*$", "u");
const pattern8 = new RegExp("^[^\\u0000-\\u001f\\u007f/\\\\]*$", "u");
const pattern9 = new RegExp("^[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$", "u");

function validate20(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="https://canvasflow.dev/schemas/canvas.schema.json" */;
let vErrors = null;
let errors = 0;
const evaluated0 = validate20.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.components === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "components"},message:"must have required property '"+"components"+"'",schema:schema31.required,parentSchema:schema31,data};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.components !== undefined){
let data0 = data.components;
if(data0 && typeof data0 == "object" && !Array.isArray(data0)){
if(Object.keys(data0).length < 1){
const err1 = {instancePath:instancePath+"/components",schemaPath:"#/properties/components/minProperties",keyword:"minProperties",params:{limit: 1},message:"must NOT have fewer than 1 properties",schema:1,parentSchema:schema31.properties.components,data:data0};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
for(const key0 in data0){
const _errs3 = errors;
if(typeof key0 === "string"){
if(func1(key0) < 1){
const err2 = {instancePath:instancePath+"/components",schemaPath:"#/properties/components/propertyNames/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters",schema:1,parentSchema:schema31.properties.components.propertyNames,data:key0,propertyName:key0};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
}
var valid1 = _errs3 === errors;
if(!valid1){
const err3 = {instancePath:instancePath+"/components",schemaPath:"#/properties/components/propertyNames",keyword:"propertyNames",params:{propertyName: key0},message:"property name must be valid",schema:schema31.properties.components.propertyNames,parentSchema:schema31.properties.components,data:data0};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
for(const key1 in data0){
let data1 = data0[key1];
if(data1 && typeof data1 == "object" && !Array.isArray(data1)){
if(data1.obj === undefined){
const err4 = {instancePath:instancePath+"/components/" + key1.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/$defs/componentEntry/required",keyword:"required",params:{missingProperty: "obj"},message:"must have required property '"+"obj"+"'",schema:schema32.required,parentSchema:schema32,data:data1};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
if(data1.obj !== undefined){
let data2 = data1.obj;
if(data2 && typeof data2 == "object" && !Array.isArray(data2)){
if(data2.component_name === undefined){
const err5 = {instancePath:instancePath+"/components/" + key1.replace(/~/g, "~0").replace(/\//g, "~1")+"/obj",schemaPath:"#/$defs/componentEntry/properties/obj/required",keyword:"required",params:{missingProperty: "component_name"},message:"must have required property '"+"component_name"+"'",schema:schema32.properties.obj.required,parentSchema:schema32.properties.obj,data:data2};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
if(data2.params === undefined){
const err6 = {instancePath:instancePath+"/components/" + key1.replace(/~/g, "~0").replace(/\//g, "~1")+"/obj",schemaPath:"#/$defs/componentEntry/properties/obj/required",keyword:"required",params:{missingProperty: "params"},message:"must have required property '"+"params"+"'",schema:schema32.properties.obj.required,parentSchema:schema32.properties.obj,data:data2};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
if(data2.component_name !== undefined){
let data3 = data2.component_name;
if(typeof data3 === "string"){
if(func1(data3) < 1){
const err7 = {instancePath:instancePath+"/components/" + key1.replace(/~/g, "~0").replace(/\//g, "~1")+"/obj/component_name",schemaPath:"#/$defs/componentEntry/properties/obj/properties/component_name/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters",schema:1,parentSchema:schema32.properties.obj.properties.component_name,data:data3};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
else {
const err8 = {instancePath:instancePath+"/components/" + key1.replace(/~/g, "~0").replace(/\//g, "~1")+"/obj/component_name",schemaPath:"#/$defs/componentEntry/properties/obj/properties/component_name/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.properties.obj.properties.component_name.type,parentSchema:schema32.properties.obj.properties.component_name,data:data3};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
if(data2.params !== undefined){
let data4 = data2.params;
if(!(data4 && typeof data4 == "object" && !Array.isArray(data4))){
const err9 = {instancePath:instancePath+"/components/" + key1.replace(/~/g, "~0").replace(/\//g, "~1")+"/obj/params",schemaPath:"#/$defs/componentEntry/properties/obj/properties/params/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema32.properties.obj.properties.params.type,parentSchema:schema32.properties.obj.properties.params,data:data4};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
}
}
else {
const err10 = {instancePath:instancePath+"/components/" + key1.replace(/~/g, "~0").replace(/\//g, "~1")+"/obj",schemaPath:"#/$defs/componentEntry/properties/obj/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema32.properties.obj.type,parentSchema:schema32.properties.obj,data:data2};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
if(data1.downstream !== undefined){
let data5 = data1.downstream;
if(Array.isArray(data5)){
const len0 = data5.length;
for(let i0=0; i0<len0; i0++){
let data6 = data5[i0];
if(typeof data6 !== "string"){
const err11 = {instancePath:instancePath+"/components/" + key1.replace(/~/g, "~0").replace(/\//g, "~1")+"/downstream/" + i0,schemaPath:"#/$defs/componentEntry/properties/downstream/items/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.properties.downstream.items.type,parentSchema:schema32.properties.downstream.items,data:data6};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
}
}
else {
const err12 = {instancePath:instancePath+"/components/" + key1.replace(/~/g, "~0").replace(/\//g, "~1")+"/downstream",schemaPath:"#/$defs/componentEntry/properties/downstream/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema32.properties.downstream.type,parentSchema:schema32.properties.downstream,data:data5};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
}
if(data1.upstream !== undefined){
let data7 = data1.upstream;
if(Array.isArray(data7)){
const len1 = data7.length;
for(let i1=0; i1<len1; i1++){
let data8 = data7[i1];
if(typeof data8 !== "string"){
const err13 = {instancePath:instancePath+"/components/" + key1.replace(/~/g, "~0").replace(/\//g, "~1")+"/upstream/" + i1,schemaPath:"#/$defs/componentEntry/properties/upstream/items/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema32.properties.upstream.items.type,parentSchema:schema32.properties.upstream.items,data:data8};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
}
}
else {
const err14 = {instancePath:instancePath+"/components/" + key1.replace(/~/g, "~0").replace(/\//g, "~1")+"/upstream",schemaPath:"#/$defs/componentEntry/properties/upstream/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema32.properties.upstream.type,parentSchema:schema32.properties.upstream,data:data7};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
}
if(data1.parent_id !== undefined){
let data9 = data1.parent_id;
if((typeof data9 !== "string") && (data9 !== null)){
const err15 = {instancePath:instancePath+"/components/" + key1.replace(/~/g, "~0").replace(/\//g, "~1")+"/parent_id",schemaPath:"#/$defs/componentEntry/properties/parent_id/type",keyword:"type",params:{type: schema32.properties.parent_id.type},message:"must be string,null",schema:schema32.properties.parent_id.type,parentSchema:schema32.properties.parent_id,data:data9};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
}
}
else {
const err16 = {instancePath:instancePath+"/components/" + key1.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/$defs/componentEntry/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema32.type,parentSchema:schema32,data:data1};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
}
}
else {
const err17 = {instancePath:instancePath+"/components",schemaPath:"#/properties/components/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema31.properties.components.type,parentSchema:schema31.properties.components,data:data0};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
}
if(data.path !== undefined){
let data10 = data.path;
if(Array.isArray(data10)){
const len2 = data10.length;
for(let i2=0; i2<len2; i2++){
let data11 = data10[i2];
if(typeof data11 !== "string"){
const err18 = {instancePath:instancePath+"/path/" + i2,schemaPath:"#/properties/path/items/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.path.items.type,parentSchema:schema31.properties.path.items,data:data11};
if(vErrors === null){
vErrors = [err18];
}
else {
vErrors.push(err18);
}
errors++;
}
}
}
else {
const err19 = {instancePath:instancePath+"/path",schemaPath:"#/properties/path/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema31.properties.path.type,parentSchema:schema31.properties.path,data:data10};
if(vErrors === null){
vErrors = [err19];
}
else {
vErrors.push(err19);
}
errors++;
}
}
if(data.history !== undefined){
let data12 = data.history;
if(Array.isArray(data12)){
const len3 = data12.length;
for(let i3=0; i3<len3; i3++){
let data13 = data12[i3];
if(Array.isArray(data13)){
if(data13.length > 2){
const err20 = {instancePath:instancePath+"/history/" + i3,schemaPath:"#/properties/history/items/maxItems",keyword:"maxItems",params:{limit: 2},message:"must NOT have more than 2 items",schema:2,parentSchema:schema31.properties.history.items,data:data13};
if(vErrors === null){
vErrors = [err20];
}
else {
vErrors.push(err20);
}
errors++;
}
if(data13.length < 2){
const err21 = {instancePath:instancePath+"/history/" + i3,schemaPath:"#/properties/history/items/minItems",keyword:"minItems",params:{limit: 2},message:"must NOT have fewer than 2 items",schema:2,parentSchema:schema31.properties.history.items,data:data13};
if(vErrors === null){
vErrors = [err21];
}
else {
vErrors.push(err21);
}
errors++;
}
const len4 = data13.length;
if(len4 > 0){
let data14 = data13[0];
if(typeof data14 !== "string"){
const err22 = {instancePath:instancePath+"/history/" + i3+"/0",schemaPath:"#/properties/history/items/prefixItems/0/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.history.items.prefixItems[0].type,parentSchema:schema31.properties.history.items.prefixItems[0],data:data14};
if(vErrors === null){
vErrors = [err22];
}
else {
vErrors.push(err22);
}
errors++;
}
}
}
else {
const err23 = {instancePath:instancePath+"/history/" + i3,schemaPath:"#/properties/history/items/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema31.properties.history.items.type,parentSchema:schema31.properties.history.items,data:data13};
if(vErrors === null){
vErrors = [err23];
}
else {
vErrors.push(err23);
}
errors++;
}
}
}
else {
const err24 = {instancePath:instancePath+"/history",schemaPath:"#/properties/history/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema31.properties.history.type,parentSchema:schema31.properties.history,data:data12};
if(vErrors === null){
vErrors = [err24];
}
else {
vErrors.push(err24);
}
errors++;
}
}
if(data.retrieval !== undefined){
let data15 = data.retrieval;
if(!data15 || typeof data15 != "object"){
const err25 = {instancePath:instancePath+"/retrieval",schemaPath:"#/properties/retrieval/type",keyword:"type",params:{type: schema31.properties.retrieval.type},message:"must be array,object",schema:schema31.properties.retrieval.type,parentSchema:schema31.properties.retrieval,data:data15};
if(vErrors === null){
vErrors = [err25];
}
else {
vErrors.push(err25);
}
errors++;
}
}
if(data.globals !== undefined){
let data16 = data.globals;
if(!(data16 && typeof data16 == "object" && !Array.isArray(data16))){
const err26 = {instancePath:instancePath+"/globals",schemaPath:"#/properties/globals/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema31.properties.globals.type,parentSchema:schema31.properties.globals,data:data16};
if(vErrors === null){
vErrors = [err26];
}
else {
vErrors.push(err26);
}
errors++;
}
}
if(data.variables !== undefined){
let data17 = data.variables;
if(!data17 || typeof data17 != "object"){
const err27 = {instancePath:instancePath+"/variables",schemaPath:"#/properties/variables/type",keyword:"type",params:{type: schema31.properties.variables.type},message:"must be object,array",schema:schema31.properties.variables.type,parentSchema:schema31.properties.variables,data:data17};
if(vErrors === null){
vErrors = [err27];
}
else {
vErrors.push(err27);
}
errors++;
}
if(Array.isArray(data17)){
const len5 = data17.length;
for(let i4=0; i4<len5; i4++){
let data18 = data17[i4];
if(data18 && typeof data18 == "object" && !Array.isArray(data18)){
if(data18.name !== undefined){
let data19 = data18.name;
if(typeof data19 === "string"){
if(!pattern4.test(data19)){
const err28 = {instancePath:instancePath+"/variables/" + i4+"/name",schemaPath:"#/$defs/variableDeclaration/properties/name/pattern",keyword:"pattern",params:{pattern: "^[a-zA-Z_0-9]+$"},message:"must match pattern \""+"^[a-zA-Z_0-9]+$"+"\"",schema:"^[a-zA-Z_0-9]+$",parentSchema:schema33.properties.name,data:data19};
if(vErrors === null){
vErrors = [err28];
}
else {
vErrors.push(err28);
}
errors++;
}
}
else {
const err29 = {instancePath:instancePath+"/variables/" + i4+"/name",schemaPath:"#/$defs/variableDeclaration/properties/name/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema33.properties.name.type,parentSchema:schema33.properties.name,data:data19};
if(vErrors === null){
vErrors = [err29];
}
else {
vErrors.push(err29);
}
errors++;
}
}
if(data18.type !== undefined){
let data20 = data18.type;
if(typeof data20 !== "string"){
const err30 = {instancePath:instancePath+"/variables/" + i4+"/type",schemaPath:"#/$defs/variableDeclaration/properties/type/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema33.properties.type.type,parentSchema:schema33.properties.type,data:data20};
if(vErrors === null){
vErrors = [err30];
}
else {
vErrors.push(err30);
}
errors++;
}
}
if(data18.description !== undefined){
let data21 = data18.description;
if(typeof data21 !== "string"){
const err31 = {instancePath:instancePath+"/variables/" + i4+"/description",schemaPath:"#/$defs/variableDeclaration/properties/description/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema33.properties.description.type,parentSchema:schema33.properties.description,data:data21};
if(vErrors === null){
vErrors = [err31];
}
else {
vErrors.push(err31);
}
errors++;
}
}
if(data18.reducer !== undefined){
let data22 = data18.reducer;
if(typeof data22 === "string"){
if(!pattern5.test(data22)){
const err32 = {instancePath:instancePath+"/variables/" + i4+"/reducer",schemaPath:"#/$defs/variableDeclaration/properties/reducer/pattern",keyword:"pattern",params:{pattern: "^[A-Za-z][A-Za-z0-9_]*$"},message:"must match pattern \""+"^[A-Za-z][A-Za-z0-9_]*$"+"\"",schema:"^[A-Za-z][A-Za-z0-9_]*$",parentSchema:schema33.properties.reducer,data:data22};
if(vErrors === null){
vErrors = [err32];
}
else {
vErrors.push(err32);
}
errors++;
}
}
else {
const err33 = {instancePath:instancePath+"/variables/" + i4+"/reducer",schemaPath:"#/$defs/variableDeclaration/properties/reducer/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema33.properties.reducer.type,parentSchema:schema33.properties.reducer,data:data22};
if(vErrors === null){
vErrors = [err33];
}
else {
vErrors.push(err33);
}
errors++;
}
}
}
else {
const err34 = {instancePath:instancePath+"/variables/" + i4,schemaPath:"#/$defs/variableDeclaration/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema33.type,parentSchema:schema33,data:data18};
if(vErrors === null){
vErrors = [err34];
}
else {
vErrors.push(err34);
}
errors++;
}
}
}
if(data17 && typeof data17 == "object" && !Array.isArray(data17)){
for(const key2 in data17){
let data23 = data17[key2];
if(data23 && typeof data23 == "object" && !Array.isArray(data23)){
if(data23.name !== undefined){
let data24 = data23.name;
if(typeof data24 === "string"){
if(!pattern4.test(data24)){
const err35 = {instancePath:instancePath+"/variables/" + key2.replace(/~/g, "~0").replace(/\//g, "~1")+"/name",schemaPath:"#/$defs/variableDeclaration/properties/name/pattern",keyword:"pattern",params:{pattern: "^[a-zA-Z_0-9]+$"},message:"must match pattern \""+"^[a-zA-Z_0-9]+$"+"\"",schema:"^[a-zA-Z_0-9]+$",parentSchema:schema33.properties.name,data:data24};
if(vErrors === null){
vErrors = [err35];
}
else {
vErrors.push(err35);
}
errors++;
}
}
else {
const err36 = {instancePath:instancePath+"/variables/" + key2.replace(/~/g, "~0").replace(/\//g, "~1")+"/name",schemaPath:"#/$defs/variableDeclaration/properties/name/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema33.properties.name.type,parentSchema:schema33.properties.name,data:data24};
if(vErrors === null){
vErrors = [err36];
}
else {
vErrors.push(err36);
}
errors++;
}
}
if(data23.type !== undefined){
let data25 = data23.type;
if(typeof data25 !== "string"){
const err37 = {instancePath:instancePath+"/variables/" + key2.replace(/~/g, "~0").replace(/\//g, "~1")+"/type",schemaPath:"#/$defs/variableDeclaration/properties/type/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema33.properties.type.type,parentSchema:schema33.properties.type,data:data25};
if(vErrors === null){
vErrors = [err37];
}
else {
vErrors.push(err37);
}
errors++;
}
}
if(data23.description !== undefined){
let data26 = data23.description;
if(typeof data26 !== "string"){
const err38 = {instancePath:instancePath+"/variables/" + key2.replace(/~/g, "~0").replace(/\//g, "~1")+"/description",schemaPath:"#/$defs/variableDeclaration/properties/description/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema33.properties.description.type,parentSchema:schema33.properties.description,data:data26};
if(vErrors === null){
vErrors = [err38];
}
else {
vErrors.push(err38);
}
errors++;
}
}
if(data23.reducer !== undefined){
let data27 = data23.reducer;
if(typeof data27 === "string"){
if(!pattern5.test(data27)){
const err39 = {instancePath:instancePath+"/variables/" + key2.replace(/~/g, "~0").replace(/\//g, "~1")+"/reducer",schemaPath:"#/$defs/variableDeclaration/properties/reducer/pattern",keyword:"pattern",params:{pattern: "^[A-Za-z][A-Za-z0-9_]*$"},message:"must match pattern \""+"^[A-Za-z][A-Za-z0-9_]*$"+"\"",schema:"^[A-Za-z][A-Za-z0-9_]*$",parentSchema:schema33.properties.reducer,data:data27};
if(vErrors === null){
vErrors = [err39];
}
else {
vErrors.push(err39);
}
errors++;
}
}
else {
const err40 = {instancePath:instancePath+"/variables/" + key2.replace(/~/g, "~0").replace(/\//g, "~1")+"/reducer",schemaPath:"#/$defs/variableDeclaration/properties/reducer/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema33.properties.reducer.type,parentSchema:schema33.properties.reducer,data:data27};
if(vErrors === null){
vErrors = [err40];
}
else {
vErrors.push(err40);
}
errors++;
}
}
}
else {
const err41 = {instancePath:instancePath+"/variables/" + key2.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/$defs/variableDeclaration/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema33.type,parentSchema:schema33,data:data23};
if(vErrors === null){
vErrors = [err41];
}
else {
vErrors.push(err41);
}
errors++;
}
}
}
}
if(data.memory !== undefined){
let data28 = data.memory;
if(!(Array.isArray(data28))){
const err42 = {instancePath:instancePath+"/memory",schemaPath:"#/properties/memory/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema31.properties.memory.type,parentSchema:schema31.properties.memory,data:data28};
if(vErrors === null){
vErrors = [err42];
}
else {
vErrors.push(err42);
}
errors++;
}
}
if(data.graph !== undefined){
let data29 = data.graph;
if(data29 && typeof data29 == "object" && !Array.isArray(data29)){
if(data29.nodes !== undefined){
let data30 = data29.nodes;
if(Array.isArray(data30)){
const len6 = data30.length;
for(let i5=0; i5<len6; i5++){
let data31 = data30[i5];
if(data31 && typeof data31 == "object" && !Array.isArray(data31)){
if(data31.id === undefined){
const err43 = {instancePath:instancePath+"/graph/nodes/" + i5,schemaPath:"#/$defs/graphNode/required",keyword:"required",params:{missingProperty: "id"},message:"must have required property '"+"id"+"'",schema:schema35.required,parentSchema:schema35,data:data31};
if(vErrors === null){
vErrors = [err43];
}
else {
vErrors.push(err43);
}
errors++;
}
if(data31.id !== undefined){
let data32 = data31.id;
if(typeof data32 !== "string"){
const err44 = {instancePath:instancePath+"/graph/nodes/" + i5+"/id",schemaPath:"#/$defs/graphNode/properties/id/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema35.properties.id.type,parentSchema:schema35.properties.id,data:data32};
if(vErrors === null){
vErrors = [err44];
}
else {
vErrors.push(err44);
}
errors++;
}
}
if(data31.type !== undefined){
let data33 = data31.type;
if(typeof data33 !== "string"){
const err45 = {instancePath:instancePath+"/graph/nodes/" + i5+"/type",schemaPath:"#/$defs/graphNode/properties/type/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema35.properties.type.type,parentSchema:schema35.properties.type,data:data33};
if(vErrors === null){
vErrors = [err45];
}
else {
vErrors.push(err45);
}
errors++;
}
}
if(data31.parentId !== undefined){
let data34 = data31.parentId;
if(typeof data34 !== "string"){
const err46 = {instancePath:instancePath+"/graph/nodes/" + i5+"/parentId",schemaPath:"#/$defs/graphNode/properties/parentId/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema35.properties.parentId.type,parentSchema:schema35.properties.parentId,data:data34};
if(vErrors === null){
vErrors = [err46];
}
else {
vErrors.push(err46);
}
errors++;
}
}
if(data31.data !== undefined){
let data35 = data31.data;
if(data35 && typeof data35 == "object" && !Array.isArray(data35)){
if(data35.label !== undefined){
let data36 = data35.label;
if(typeof data36 !== "string"){
const err47 = {instancePath:instancePath+"/graph/nodes/" + i5+"/data/label",schemaPath:"#/$defs/graphNode/properties/data/properties/label/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema35.properties.data.properties.label.type,parentSchema:schema35.properties.data.properties.label,data:data36};
if(vErrors === null){
vErrors = [err47];
}
else {
vErrors.push(err47);
}
errors++;
}
}
if(data35.name !== undefined){
let data37 = data35.name;
if(typeof data37 !== "string"){
const err48 = {instancePath:instancePath+"/graph/nodes/" + i5+"/data/name",schemaPath:"#/$defs/graphNode/properties/data/properties/name/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema35.properties.data.properties.name.type,parentSchema:schema35.properties.data.properties.name,data:data37};
if(vErrors === null){
vErrors = [err48];
}
else {
vErrors.push(err48);
}
errors++;
}
}
if(data35.form !== undefined){
let data38 = data35.form;
if(!(data38 && typeof data38 == "object" && !Array.isArray(data38))){
const err49 = {instancePath:instancePath+"/graph/nodes/" + i5+"/data/form",schemaPath:"#/$defs/graphNode/properties/data/properties/form/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema35.properties.data.properties.form.type,parentSchema:schema35.properties.data.properties.form,data:data38};
if(vErrors === null){
vErrors = [err49];
}
else {
vErrors.push(err49);
}
errors++;
}
}
}
else {
const err50 = {instancePath:instancePath+"/graph/nodes/" + i5+"/data",schemaPath:"#/$defs/graphNode/properties/data/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema35.properties.data.type,parentSchema:schema35.properties.data,data:data35};
if(vErrors === null){
vErrors = [err50];
}
else {
vErrors.push(err50);
}
errors++;
}
}
}
else {
const err51 = {instancePath:instancePath+"/graph/nodes/" + i5,schemaPath:"#/$defs/graphNode/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema35.type,parentSchema:schema35,data:data31};
if(vErrors === null){
vErrors = [err51];
}
else {
vErrors.push(err51);
}
errors++;
}
}
}
else {
const err52 = {instancePath:instancePath+"/graph/nodes",schemaPath:"#/properties/graph/properties/nodes/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema31.properties.graph.properties.nodes.type,parentSchema:schema31.properties.graph.properties.nodes,data:data30};
if(vErrors === null){
vErrors = [err52];
}
else {
vErrors.push(err52);
}
errors++;
}
}
if(data29.edges !== undefined){
let data39 = data29.edges;
if(Array.isArray(data39)){
const len7 = data39.length;
for(let i6=0; i6<len7; i6++){
let data40 = data39[i6];
if(data40 && typeof data40 == "object" && !Array.isArray(data40)){
if(data40.source === undefined){
const err53 = {instancePath:instancePath+"/graph/edges/" + i6,schemaPath:"#/$defs/graphEdge/required",keyword:"required",params:{missingProperty: "source"},message:"must have required property '"+"source"+"'",schema:schema36.required,parentSchema:schema36,data:data40};
if(vErrors === null){
vErrors = [err53];
}
else {
vErrors.push(err53);
}
errors++;
}
if(data40.target === undefined){
const err54 = {instancePath:instancePath+"/graph/edges/" + i6,schemaPath:"#/$defs/graphEdge/required",keyword:"required",params:{missingProperty: "target"},message:"must have required property '"+"target"+"'",schema:schema36.required,parentSchema:schema36,data:data40};
if(vErrors === null){
vErrors = [err54];
}
else {
vErrors.push(err54);
}
errors++;
}
if(data40.id !== undefined){
let data41 = data40.id;
if(typeof data41 !== "string"){
const err55 = {instancePath:instancePath+"/graph/edges/" + i6+"/id",schemaPath:"#/$defs/graphEdge/properties/id/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema36.properties.id.type,parentSchema:schema36.properties.id,data:data41};
if(vErrors === null){
vErrors = [err55];
}
else {
vErrors.push(err55);
}
errors++;
}
}
if(data40.source !== undefined){
let data42 = data40.source;
if(typeof data42 !== "string"){
const err56 = {instancePath:instancePath+"/graph/edges/" + i6+"/source",schemaPath:"#/$defs/graphEdge/properties/source/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema36.properties.source.type,parentSchema:schema36.properties.source,data:data42};
if(vErrors === null){
vErrors = [err56];
}
else {
vErrors.push(err56);
}
errors++;
}
}
if(data40.target !== undefined){
let data43 = data40.target;
if(typeof data43 !== "string"){
const err57 = {instancePath:instancePath+"/graph/edges/" + i6+"/target",schemaPath:"#/$defs/graphEdge/properties/target/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema36.properties.target.type,parentSchema:schema36.properties.target,data:data43};
if(vErrors === null){
vErrors = [err57];
}
else {
vErrors.push(err57);
}
errors++;
}
}
if(data40.sourceHandle !== undefined){
let data44 = data40.sourceHandle;
if((typeof data44 !== "string") && (data44 !== null)){
const err58 = {instancePath:instancePath+"/graph/edges/" + i6+"/sourceHandle",schemaPath:"#/$defs/graphEdge/properties/sourceHandle/type",keyword:"type",params:{type: schema36.properties.sourceHandle.type},message:"must be string,null",schema:schema36.properties.sourceHandle.type,parentSchema:schema36.properties.sourceHandle,data:data44};
if(vErrors === null){
vErrors = [err58];
}
else {
vErrors.push(err58);
}
errors++;
}
}
if(data40.targetHandle !== undefined){
let data45 = data40.targetHandle;
if((typeof data45 !== "string") && (data45 !== null)){
const err59 = {instancePath:instancePath+"/graph/edges/" + i6+"/targetHandle",schemaPath:"#/$defs/graphEdge/properties/targetHandle/type",keyword:"type",params:{type: schema36.properties.targetHandle.type},message:"must be string,null",schema:schema36.properties.targetHandle.type,parentSchema:schema36.properties.targetHandle,data:data45};
if(vErrors === null){
vErrors = [err59];
}
else {
vErrors.push(err59);
}
errors++;
}
}
}
else {
const err60 = {instancePath:instancePath+"/graph/edges/" + i6,schemaPath:"#/$defs/graphEdge/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema36.type,parentSchema:schema36,data:data40};
if(vErrors === null){
vErrors = [err60];
}
else {
vErrors.push(err60);
}
errors++;
}
}
}
else {
const err61 = {instancePath:instancePath+"/graph/edges",schemaPath:"#/properties/graph/properties/edges/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema31.properties.graph.properties.edges.type,parentSchema:schema31.properties.graph.properties.edges,data:data39};
if(vErrors === null){
vErrors = [err61];
}
else {
vErrors.push(err61);
}
errors++;
}
}
}
else {
const err62 = {instancePath:instancePath+"/graph",schemaPath:"#/properties/graph/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema31.properties.graph.type,parentSchema:schema31.properties.graph,data:data29};
if(vErrors === null){
vErrors = [err62];
}
else {
vErrors.push(err62);
}
errors++;
}
}
if(data.task_id !== undefined){
let data46 = data.task_id;
if(typeof data46 === "string"){
if(func1(data46) > 256){
const err63 = {instancePath:instancePath+"/task_id",schemaPath:"#/properties/task_id/maxLength",keyword:"maxLength",params:{limit: 256},message:"must NOT have more than 256 characters",schema:256,parentSchema:schema31.properties.task_id,data:data46};
if(vErrors === null){
vErrors = [err63];
}
else {
vErrors.push(err63);
}
errors++;
}
if(!pattern8.test(data46)){
const err64 = {instancePath:instancePath+"/task_id",schemaPath:"#/properties/task_id/pattern",keyword:"pattern",params:{pattern: "^[^\\u0000-\\u001f\\u007f/\\\\]*$"},message:"must match pattern \""+"^[^\\u0000-\\u001f\\u007f/\\\\]*$"+"\"",schema:"^[^\\u0000-\\u001f\\u007f/\\\\]*$",parentSchema:schema31.properties.task_id,data:data46};
if(vErrors === null){
vErrors = [err64];
}
else {
vErrors.push(err64);
}
errors++;
}
}
else {
const err65 = {instancePath:instancePath+"/task_id",schemaPath:"#/properties/task_id/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.task_id.type,parentSchema:schema31.properties.task_id,data:data46};
if(vErrors === null){
vErrors = [err65];
}
else {
vErrors.push(err65);
}
errors++;
}
}
if(data.messages !== undefined){
let data47 = data.messages;
if(!(Array.isArray(data47))){
const err66 = {instancePath:instancePath+"/messages",schemaPath:"#/properties/messages/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema31.properties.messages.type,parentSchema:schema31.properties.messages,data:data47};
if(vErrors === null){
vErrors = [err66];
}
else {
vErrors.push(err66);
}
errors++;
}
}
if(data.canvasflow !== undefined){
let data48 = data.canvasflow;
const _errs108 = errors;
let valid33 = true;
const _errs109 = errors;
if(data48 && typeof data48 == "object" && !Array.isArray(data48)){
if(data48.status !== undefined){
if("paused" !== data48.status){
const err67 = {};
if(vErrors === null){
vErrors = [err67];
}
else {
vErrors.push(err67);
}
errors++;
}
}
}
var _valid0 = _errs109 === errors;
errors = _errs108;
if(vErrors !== null){
if(_errs108){
vErrors.length = _errs108;
}
else {
vErrors = null;
}
}
if(_valid0){
const _errs111 = errors;
if(data48 && typeof data48 == "object" && !Array.isArray(data48)){
if(data48.pending === undefined){
const err68 = {instancePath:instancePath+"/canvasflow",schemaPath:"run-state.schema.json/then/required",keyword:"required",params:{missingProperty: "pending"},message:"must have required property '"+"pending"+"'",schema:schema37.then.required,parentSchema:schema37.then,data:data48};
if(vErrors === null){
vErrors = [err68];
}
else {
vErrors.push(err68);
}
errors++;
}
}
var _valid0 = _errs111 === errors;
valid33 = _valid0;
}
if(!valid33){
const err69 = {instancePath:instancePath+"/canvasflow",schemaPath:"run-state.schema.json/if",keyword:"if",params:{failingKeyword: "then"},message:"must match \"then\" schema",schema:schema37.if,parentSchema:schema37,data:data48};
if(vErrors === null){
vErrors = [err69];
}
else {
vErrors.push(err69);
}
errors++;
}
if(data48 && typeof data48 == "object" && !Array.isArray(data48)){
if(data48.version === undefined){
const err70 = {instancePath:instancePath+"/canvasflow",schemaPath:"run-state.schema.json/required",keyword:"required",params:{missingProperty: "version"},message:"must have required property '"+"version"+"'",schema:schema37.required,parentSchema:schema37,data:data48};
if(vErrors === null){
vErrors = [err70];
}
else {
vErrors.push(err70);
}
errors++;
}
if(data48.status === undefined){
const err71 = {instancePath:instancePath+"/canvasflow",schemaPath:"run-state.schema.json/required",keyword:"required",params:{missingProperty: "status"},message:"must have required property '"+"status"+"'",schema:schema37.required,parentSchema:schema37,data:data48};
if(vErrors === null){
vErrors = [err71];
}
else {
vErrors.push(err71);
}
errors++;
}
if(data48.outputs === undefined){
const err72 = {instancePath:instancePath+"/canvasflow",schemaPath:"run-state.schema.json/required",keyword:"required",params:{missingProperty: "outputs"},message:"must have required property '"+"outputs"+"'",schema:schema37.required,parentSchema:schema37,data:data48};
if(vErrors === null){
vErrors = [err72];
}
else {
vErrors.push(err72);
}
errors++;
}
if(data48.component_state === undefined){
const err73 = {instancePath:instancePath+"/canvasflow",schemaPath:"run-state.schema.json/required",keyword:"required",params:{missingProperty: "component_state"},message:"must have required property '"+"component_state"+"'",schema:schema37.required,parentSchema:schema37,data:data48};
if(vErrors === null){
vErrors = [err73];
}
else {
vErrors.push(err73);
}
errors++;
}
if(data48.open_containers === undefined){
const err74 = {instancePath:instancePath+"/canvasflow",schemaPath:"run-state.schema.json/required",keyword:"required",params:{missingProperty: "open_containers"},message:"must have required property '"+"open_containers"+"'",schema:schema37.required,parentSchema:schema37,data:data48};
if(vErrors === null){
vErrors = [err74];
}
else {
vErrors.push(err74);
}
errors++;
}
if(data48.steps === undefined){
const err75 = {instancePath:instancePath+"/canvasflow",schemaPath:"run-state.schema.json/required",keyword:"required",params:{missingProperty: "steps"},message:"must have required property '"+"steps"+"'",schema:schema37.required,parentSchema:schema37,data:data48};
if(vErrors === null){
vErrors = [err75];
}
else {
vErrors.push(err75);
}
errors++;
}
if(data48.version !== undefined){
let data50 = data48.version;
if(1 !== data50){
const err76 = {instancePath:instancePath+"/canvasflow/version",schemaPath:"run-state.schema.json/properties/version/const",keyword:"const",params:{allowedValue: 1},message:"must be equal to constant",schema:1,parentSchema:schema37.properties.version,data:data50};
if(vErrors === null){
vErrors = [err76];
}
else {
vErrors.push(err76);
}
errors++;
}
}
if(data48.status !== undefined){
let data51 = data48.status;
if(!(((((data51 === "idle") || (data51 === "paused")) || (data51 === "running")) || (data51 === "failed")) || (data51 === "cancelled"))){
const err77 = {instancePath:instancePath+"/canvasflow/status",schemaPath:"run-state.schema.json/properties/status/enum",keyword:"enum",params:{allowedValues: schema37.properties.status.enum},message:"must be equal to one of the allowed values",schema:schema37.properties.status.enum,parentSchema:schema37.properties.status,data:data51};
if(vErrors === null){
vErrors = [err77];
}
else {
vErrors.push(err77);
}
errors++;
}
}
if(data48.outputs !== undefined){
let data52 = data48.outputs;
if(data52 && typeof data52 == "object" && !Array.isArray(data52)){
for(const key3 in data52){
const _errs116 = errors;
const _errs117 = errors;
const _errs118 = errors;
if(!(((key3 === "__proto__") || (key3 === "constructor")) || (key3 === "prototype"))){
const err78 = {};
if(vErrors === null){
vErrors = [err78];
}
else {
vErrors.push(err78);
}
errors++;
}
var valid37 = _errs118 === errors;
if(valid37){
const err79 = {instancePath:instancePath+"/canvasflow/outputs",schemaPath:"run-state.schema.json/properties/outputs/propertyNames/not",keyword:"not",params:{},message:"must NOT be valid",schema:schema37.properties.outputs.propertyNames.not,parentSchema:schema37.properties.outputs.propertyNames,data:key3,propertyName:key3};
if(vErrors === null){
vErrors = [err79];
}
else {
vErrors.push(err79);
}
errors++;
}
else {
errors = _errs117;
if(vErrors !== null){
if(_errs117){
vErrors.length = _errs117;
}
else {
vErrors = null;
}
}
}
var valid36 = _errs116 === errors;
if(!valid36){
const err80 = {instancePath:instancePath+"/canvasflow/outputs",schemaPath:"run-state.schema.json/properties/outputs/propertyNames",keyword:"propertyNames",params:{propertyName: key3},message:"property name must be valid",schema:schema37.properties.outputs.propertyNames,parentSchema:schema37.properties.outputs,data:data52};
if(vErrors === null){
vErrors = [err80];
}
else {
vErrors.push(err80);
}
errors++;
}
}
for(const key4 in data52){
let data53 = data52[key4];
if(data53 && typeof data53 == "object" && !Array.isArray(data53)){
for(const key5 in data53){
const _errs122 = errors;
const _errs123 = errors;
const _errs124 = errors;
if(!(((key5 === "__proto__") || (key5 === "constructor")) || (key5 === "prototype"))){
const err81 = {};
if(vErrors === null){
vErrors = [err81];
}
else {
vErrors.push(err81);
}
errors++;
}
var valid40 = _errs124 === errors;
if(valid40){
const err82 = {instancePath:instancePath+"/canvasflow/outputs/" + key4.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"run-state.schema.json/properties/outputs/additionalProperties/propertyNames/not",keyword:"not",params:{},message:"must NOT be valid",schema:schema37.properties.outputs.additionalProperties.propertyNames.not,parentSchema:schema37.properties.outputs.additionalProperties.propertyNames,data:key5,propertyName:key5};
if(vErrors === null){
vErrors = [err82];
}
else {
vErrors.push(err82);
}
errors++;
}
else {
errors = _errs123;
if(vErrors !== null){
if(_errs123){
vErrors.length = _errs123;
}
else {
vErrors = null;
}
}
}
var valid39 = _errs122 === errors;
if(!valid39){
const err83 = {instancePath:instancePath+"/canvasflow/outputs/" + key4.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"run-state.schema.json/properties/outputs/additionalProperties/propertyNames",keyword:"propertyNames",params:{propertyName: key5},message:"property name must be valid",schema:schema37.properties.outputs.additionalProperties.propertyNames,parentSchema:schema37.properties.outputs.additionalProperties,data:data53};
if(vErrors === null){
vErrors = [err83];
}
else {
vErrors.push(err83);
}
errors++;
}
}
}
else {
const err84 = {instancePath:instancePath+"/canvasflow/outputs/" + key4.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"run-state.schema.json/properties/outputs/additionalProperties/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema37.properties.outputs.additionalProperties.type,parentSchema:schema37.properties.outputs.additionalProperties,data:data53};
if(vErrors === null){
vErrors = [err84];
}
else {
vErrors.push(err84);
}
errors++;
}
}
}
else {
const err85 = {instancePath:instancePath+"/canvasflow/outputs",schemaPath:"run-state.schema.json/properties/outputs/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema37.properties.outputs.type,parentSchema:schema37.properties.outputs,data:data52};
if(vErrors === null){
vErrors = [err85];
}
else {
vErrors.push(err85);
}
errors++;
}
}
if(data48.component_state !== undefined){
let data54 = data48.component_state;
if(!(data54 && typeof data54 == "object" && !Array.isArray(data54))){
const err86 = {instancePath:instancePath+"/canvasflow/component_state",schemaPath:"run-state.schema.json/properties/component_state/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema37.properties.component_state.type,parentSchema:schema37.properties.component_state,data:data54};
if(vErrors === null){
vErrors = [err86];
}
else {
vErrors.push(err86);
}
errors++;
}
}
if(data48.open_containers !== undefined){
let data55 = data48.open_containers;
if(data55 && typeof data55 == "object" && !Array.isArray(data55)){
for(const key6 in data55){
let data56 = data55[key6];
if(!(typeof data56 == "number")){
const err87 = {instancePath:instancePath+"/canvasflow/open_containers/" + key6.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"run-state.schema.json/properties/open_containers/additionalProperties/type",keyword:"type",params:{type: "number"},message:"must be number",schema:schema37.properties.open_containers.additionalProperties.type,parentSchema:schema37.properties.open_containers.additionalProperties,data:data56};
if(vErrors === null){
vErrors = [err87];
}
else {
vErrors.push(err87);
}
errors++;
}
}
}
else {
const err88 = {instancePath:instancePath+"/canvasflow/open_containers",schemaPath:"run-state.schema.json/properties/open_containers/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema37.properties.open_containers.type,parentSchema:schema37.properties.open_containers,data:data55};
if(vErrors === null){
vErrors = [err88];
}
else {
vErrors.push(err88);
}
errors++;
}
}
if(data48.steps !== undefined){
let data57 = data48.steps;
if(!((typeof data57 == "number") && (!(data57 % 1) && !isNaN(data57)))){
const err89 = {instancePath:instancePath+"/canvasflow/steps",schemaPath:"run-state.schema.json/properties/steps/type",keyword:"type",params:{type: "integer"},message:"must be integer",schema:schema37.properties.steps.type,parentSchema:schema37.properties.steps,data:data57};
if(vErrors === null){
vErrors = [err89];
}
else {
vErrors.push(err89);
}
errors++;
}
if(typeof data57 == "number"){
if(data57 < 0 || isNaN(data57)){
const err90 = {instancePath:instancePath+"/canvasflow/steps",schemaPath:"run-state.schema.json/properties/steps/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0",schema:0,parentSchema:schema37.properties.steps,data:data57};
if(vErrors === null){
vErrors = [err90];
}
else {
vErrors.push(err90);
}
errors++;
}
}
}
if(data48.pending !== undefined){
let data58 = data48.pending;
if(data58 && typeof data58 == "object" && !Array.isArray(data58)){
if(data58.components === undefined){
const err91 = {instancePath:instancePath+"/canvasflow/pending",schemaPath:"run-state.schema.json/properties/pending/required",keyword:"required",params:{missingProperty: "components"},message:"must have required property '"+"components"+"'",schema:schema37.properties.pending.required,parentSchema:schema37.properties.pending,data:data58};
if(vErrors === null){
vErrors = [err91];
}
else {
vErrors.push(err91);
}
errors++;
}
if(data58.inputs === undefined){
const err92 = {instancePath:instancePath+"/canvasflow/pending",schemaPath:"run-state.schema.json/properties/pending/required",keyword:"required",params:{missingProperty: "inputs"},message:"must have required property '"+"inputs"+"'",schema:schema37.properties.pending.required,parentSchema:schema37.properties.pending,data:data58};
if(vErrors === null){
vErrors = [err92];
}
else {
vErrors.push(err92);
}
errors++;
}
if(data58.tips === undefined){
const err93 = {instancePath:instancePath+"/canvasflow/pending",schemaPath:"run-state.schema.json/properties/pending/required",keyword:"required",params:{missingProperty: "tips"},message:"must have required property '"+"tips"+"'",schema:schema37.properties.pending.required,parentSchema:schema37.properties.pending,data:data58};
if(vErrors === null){
vErrors = [err93];
}
else {
vErrors.push(err93);
}
errors++;
}
if(data58.components !== undefined){
let data59 = data58.components;
if(Array.isArray(data59)){
if(data59.length < 1){
const err94 = {instancePath:instancePath+"/canvasflow/pending/components",schemaPath:"run-state.schema.json/properties/pending/properties/components/minItems",keyword:"minItems",params:{limit: 1},message:"must NOT have fewer than 1 items",schema:1,parentSchema:schema37.properties.pending.properties.components,data:data59};
if(vErrors === null){
vErrors = [err94];
}
else {
vErrors.push(err94);
}
errors++;
}
const len8 = data59.length;
for(let i7=0; i7<len8; i7++){
let data60 = data59[i7];
if(typeof data60 !== "string"){
const err95 = {instancePath:instancePath+"/canvasflow/pending/components/" + i7,schemaPath:"run-state.schema.json/properties/pending/properties/components/items/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema37.properties.pending.properties.components.items.type,parentSchema:schema37.properties.pending.properties.components.items,data:data60};
if(vErrors === null){
vErrors = [err95];
}
else {
vErrors.push(err95);
}
errors++;
}
}
}
else {
const err96 = {instancePath:instancePath+"/canvasflow/pending/components",schemaPath:"run-state.schema.json/properties/pending/properties/components/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema37.properties.pending.properties.components.type,parentSchema:schema37.properties.pending.properties.components,data:data59};
if(vErrors === null){
vErrors = [err96];
}
else {
vErrors.push(err96);
}
errors++;
}
}
if(data58.inputs !== undefined){
let data61 = data58.inputs;
if(data61 && typeof data61 == "object" && !Array.isArray(data61)){
for(const key7 in data61){
let data62 = data61[key7];
if(!(data62 && typeof data62 == "object" && !Array.isArray(data62))){
const err97 = {instancePath:instancePath+"/canvasflow/pending/inputs/" + key7.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"run-state.schema.json/properties/pending/properties/inputs/additionalProperties/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema37.properties.pending.properties.inputs.additionalProperties.type,parentSchema:schema37.properties.pending.properties.inputs.additionalProperties,data:data62};
if(vErrors === null){
vErrors = [err97];
}
else {
vErrors.push(err97);
}
errors++;
}
}
}
else {
const err98 = {instancePath:instancePath+"/canvasflow/pending/inputs",schemaPath:"run-state.schema.json/properties/pending/properties/inputs/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema37.properties.pending.properties.inputs.type,parentSchema:schema37.properties.pending.properties.inputs,data:data61};
if(vErrors === null){
vErrors = [err98];
}
else {
vErrors.push(err98);
}
errors++;
}
}
if(data58.tips !== undefined){
let data63 = data58.tips;
if(typeof data63 !== "string"){
const err99 = {instancePath:instancePath+"/canvasflow/pending/tips",schemaPath:"run-state.schema.json/properties/pending/properties/tips/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema37.properties.pending.properties.tips.type,parentSchema:schema37.properties.pending.properties.tips,data:data63};
if(vErrors === null){
vErrors = [err99];
}
else {
vErrors.push(err99);
}
errors++;
}
}
if(data58.interrupts !== undefined){
let data64 = data58.interrupts;
if(Array.isArray(data64)){
const len9 = data64.length;
for(let i8=0; i8<len9; i8++){
let data65 = data64[i8];
if(data65 && typeof data65 == "object" && !Array.isArray(data65)){
if(data65.id === undefined){
const err100 = {instancePath:instancePath+"/canvasflow/pending/interrupts/" + i8,schemaPath:"run-state.schema.json/properties/pending/properties/interrupts/items/required",keyword:"required",params:{missingProperty: "id"},message:"must have required property '"+"id"+"'",schema:schema37.properties.pending.properties.interrupts.items.required,parentSchema:schema37.properties.pending.properties.interrupts.items,data:data65};
if(vErrors === null){
vErrors = [err100];
}
else {
vErrors.push(err100);
}
errors++;
}
if(data65.component_id === undefined){
const err101 = {instancePath:instancePath+"/canvasflow/pending/interrupts/" + i8,schemaPath:"run-state.schema.json/properties/pending/properties/interrupts/items/required",keyword:"required",params:{missingProperty: "component_id"},message:"must have required property '"+"component_id"+"'",schema:schema37.properties.pending.properties.interrupts.items.required,parentSchema:schema37.properties.pending.properties.interrupts.items,data:data65};
if(vErrors === null){
vErrors = [err101];
}
else {
vErrors.push(err101);
}
errors++;
}
if(data65.id !== undefined){
let data66 = data65.id;
if(typeof data66 !== "string"){
const err102 = {instancePath:instancePath+"/canvasflow/pending/interrupts/" + i8+"/id",schemaPath:"run-state.schema.json/properties/pending/properties/interrupts/items/properties/id/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema37.properties.pending.properties.interrupts.items.properties.id.type,parentSchema:schema37.properties.pending.properties.interrupts.items.properties.id,data:data66};
if(vErrors === null){
vErrors = [err102];
}
else {
vErrors.push(err102);
}
errors++;
}
}
if(data65.component_id !== undefined){
let data67 = data65.component_id;
if(typeof data67 !== "string"){
const err103 = {instancePath:instancePath+"/canvasflow/pending/interrupts/" + i8+"/component_id",schemaPath:"run-state.schema.json/properties/pending/properties/interrupts/items/properties/component_id/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema37.properties.pending.properties.interrupts.items.properties.component_id.type,parentSchema:schema37.properties.pending.properties.interrupts.items.properties.component_id,data:data67};
if(vErrors === null){
vErrors = [err103];
}
else {
vErrors.push(err103);
}
errors++;
}
}
}
else {
const err104 = {instancePath:instancePath+"/canvasflow/pending/interrupts/" + i8,schemaPath:"run-state.schema.json/properties/pending/properties/interrupts/items/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema37.properties.pending.properties.interrupts.items.type,parentSchema:schema37.properties.pending.properties.interrupts.items,data:data65};
if(vErrors === null){
vErrors = [err104];
}
else {
vErrors.push(err104);
}
errors++;
}
}
}
else {
const err105 = {instancePath:instancePath+"/canvasflow/pending/interrupts",schemaPath:"run-state.schema.json/properties/pending/properties/interrupts/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema37.properties.pending.properties.interrupts.type,parentSchema:schema37.properties.pending.properties.interrupts,data:data64};
if(vErrors === null){
vErrors = [err105];
}
else {
vErrors.push(err105);
}
errors++;
}
}
}
else {
const err106 = {instancePath:instancePath+"/canvasflow/pending",schemaPath:"run-state.schema.json/properties/pending/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema37.properties.pending.type,parentSchema:schema37.properties.pending,data:data58};
if(vErrors === null){
vErrors = [err106];
}
else {
vErrors.push(err106);
}
errors++;
}
}
if(data48.reply !== undefined){
let data68 = data48.reply;
if(Array.isArray(data68)){
const len10 = data68.length;
for(let i9=0; i9<len10; i9++){
let data69 = data68[i9];
if(typeof data69 !== "string"){
const err107 = {instancePath:instancePath+"/canvasflow/reply/" + i9,schemaPath:"run-state.schema.json/properties/reply/items/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema37.properties.reply.items.type,parentSchema:schema37.properties.reply.items,data:data69};
if(vErrors === null){
vErrors = [err107];
}
else {
vErrors.push(err107);
}
errors++;
}
}
}
else {
const err108 = {instancePath:instancePath+"/canvasflow/reply",schemaPath:"run-state.schema.json/properties/reply/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema37.properties.reply.type,parentSchema:schema37.properties.reply,data:data68};
if(vErrors === null){
vErrors = [err108];
}
else {
vErrors.push(err108);
}
errors++;
}
}
if(data48.references !== undefined){
let data70 = data48.references;
if(data70 && typeof data70 == "object" && !Array.isArray(data70)){
if(data70.chunks === undefined){
const err109 = {instancePath:instancePath+"/canvasflow/references",schemaPath:"run-state.schema.json/properties/references/required",keyword:"required",params:{missingProperty: "chunks"},message:"must have required property '"+"chunks"+"'",schema:schema37.properties.references.required,parentSchema:schema37.properties.references,data:data70};
if(vErrors === null){
vErrors = [err109];
}
else {
vErrors.push(err109);
}
errors++;
}
if(data70.doc_aggs === undefined){
const err110 = {instancePath:instancePath+"/canvasflow/references",schemaPath:"run-state.schema.json/properties/references/required",keyword:"required",params:{missingProperty: "doc_aggs"},message:"must have required property '"+"doc_aggs"+"'",schema:schema37.properties.references.required,parentSchema:schema37.properties.references,data:data70};
if(vErrors === null){
vErrors = [err110];
}
else {
vErrors.push(err110);
}
errors++;
}
if(data70.chunks !== undefined){
let data71 = data70.chunks;
if(Array.isArray(data71)){
const len11 = data71.length;
for(let i10=0; i10<len11; i10++){
let data72 = data71[i10];
if(!(data72 && typeof data72 == "object" && !Array.isArray(data72))){
const err111 = {instancePath:instancePath+"/canvasflow/references/chunks/" + i10,schemaPath:"run-state.schema.json/properties/references/properties/chunks/items/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema37.properties.references.properties.chunks.items.type,parentSchema:schema37.properties.references.properties.chunks.items,data:data72};
if(vErrors === null){
vErrors = [err111];
}
else {
vErrors.push(err111);
}
errors++;
}
}
}
else {
const err112 = {instancePath:instancePath+"/canvasflow/references/chunks",schemaPath:"run-state.schema.json/properties/references/properties/chunks/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema37.properties.references.properties.chunks.type,parentSchema:schema37.properties.references.properties.chunks,data:data71};
if(vErrors === null){
vErrors = [err112];
}
else {
vErrors.push(err112);
}
errors++;
}
}
if(data70.doc_aggs !== undefined){
let data73 = data70.doc_aggs;
if(Array.isArray(data73)){
const len12 = data73.length;
for(let i11=0; i11<len12; i11++){
let data74 = data73[i11];
if(!(data74 && typeof data74 == "object" && !Array.isArray(data74))){
const err113 = {instancePath:instancePath+"/canvasflow/references/doc_aggs/" + i11,schemaPath:"run-state.schema.json/properties/references/properties/doc_aggs/items/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema37.properties.references.properties.doc_aggs.items.type,parentSchema:schema37.properties.references.properties.doc_aggs.items,data:data74};
if(vErrors === null){
vErrors = [err113];
}
else {
vErrors.push(err113);
}
errors++;
}
}
}
else {
const err114 = {instancePath:instancePath+"/canvasflow/references/doc_aggs",schemaPath:"run-state.schema.json/properties/references/properties/doc_aggs/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema37.properties.references.properties.doc_aggs.type,parentSchema:schema37.properties.references.properties.doc_aggs,data:data73};
if(vErrors === null){
vErrors = [err114];
}
else {
vErrors.push(err114);
}
errors++;
}
}
}
else {
const err115 = {instancePath:instancePath+"/canvasflow/references",schemaPath:"run-state.schema.json/properties/references/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema37.properties.references.type,parentSchema:schema37.properties.references,data:data70};
if(vErrors === null){
vErrors = [err115];
}
else {
vErrors.push(err115);
}
errors++;
}
}
if(data48.error !== undefined){
let data75 = data48.error;
if(typeof data75 !== "string"){
const err116 = {instancePath:instancePath+"/canvasflow/error",schemaPath:"run-state.schema.json/properties/error/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema37.properties.error.type,parentSchema:schema37.properties.error,data:data75};
if(vErrors === null){
vErrors = [err116];
}
else {
vErrors.push(err116);
}
errors++;
}
}
if(data48.epoch !== undefined){
let data76 = data48.epoch;
if(!((typeof data76 == "number") && (!(data76 % 1) && !isNaN(data76)))){
const err117 = {instancePath:instancePath+"/canvasflow/epoch",schemaPath:"run-state.schema.json/properties/epoch/type",keyword:"type",params:{type: "integer"},message:"must be integer",schema:schema37.properties.epoch.type,parentSchema:schema37.properties.epoch,data:data76};
if(vErrors === null){
vErrors = [err117];
}
else {
vErrors.push(err117);
}
errors++;
}
if(typeof data76 == "number"){
if(data76 < 0 || isNaN(data76)){
const err118 = {instancePath:instancePath+"/canvasflow/epoch",schemaPath:"run-state.schema.json/properties/epoch/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0",schema:0,parentSchema:schema37.properties.epoch,data:data76};
if(vErrors === null){
vErrors = [err118];
}
else {
vErrors.push(err118);
}
errors++;
}
}
}
if(data48.executions !== undefined){
let data77 = data48.executions;
if(data77 && typeof data77 == "object" && !Array.isArray(data77)){
for(const key8 in data77){
let data78 = data77[key8];
if(!((typeof data78 == "number") && (!(data78 % 1) && !isNaN(data78)))){
const err119 = {instancePath:instancePath+"/canvasflow/executions/" + key8.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"run-state.schema.json/properties/executions/additionalProperties/type",keyword:"type",params:{type: "integer"},message:"must be integer",schema:schema37.properties.executions.additionalProperties.type,parentSchema:schema37.properties.executions.additionalProperties,data:data78};
if(vErrors === null){
vErrors = [err119];
}
else {
vErrors.push(err119);
}
errors++;
}
if(typeof data78 == "number"){
if(data78 < 0 || isNaN(data78)){
const err120 = {instancePath:instancePath+"/canvasflow/executions/" + key8.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"run-state.schema.json/properties/executions/additionalProperties/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0",schema:0,parentSchema:schema37.properties.executions.additionalProperties,data:data78};
if(vErrors === null){
vErrors = [err120];
}
else {
vErrors.push(err120);
}
errors++;
}
}
}
}
else {
const err121 = {instancePath:instancePath+"/canvasflow/executions",schemaPath:"run-state.schema.json/properties/executions/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema37.properties.executions.type,parentSchema:schema37.properties.executions,data:data77};
if(vErrors === null){
vErrors = [err121];
}
else {
vErrors.push(err121);
}
errors++;
}
}
if(data48.usage !== undefined){
let data79 = data48.usage;
if(data79 && typeof data79 == "object" && !Array.isArray(data79)){
if(data79.prompt_tokens === undefined){
const err122 = {instancePath:instancePath+"/canvasflow/usage",schemaPath:"run-state.schema.json/properties/usage/required",keyword:"required",params:{missingProperty: "prompt_tokens"},message:"must have required property '"+"prompt_tokens"+"'",schema:schema37.properties.usage.required,parentSchema:schema37.properties.usage,data:data79};
if(vErrors === null){
vErrors = [err122];
}
else {
vErrors.push(err122);
}
errors++;
}
if(data79.completion_tokens === undefined){
const err123 = {instancePath:instancePath+"/canvasflow/usage",schemaPath:"run-state.schema.json/properties/usage/required",keyword:"required",params:{missingProperty: "completion_tokens"},message:"must have required property '"+"completion_tokens"+"'",schema:schema37.properties.usage.required,parentSchema:schema37.properties.usage,data:data79};
if(vErrors === null){
vErrors = [err123];
}
else {
vErrors.push(err123);
}
errors++;
}
if(data79.total_tokens === undefined){
const err124 = {instancePath:instancePath+"/canvasflow/usage",schemaPath:"run-state.schema.json/properties/usage/required",keyword:"required",params:{missingProperty: "total_tokens"},message:"must have required property '"+"total_tokens"+"'",schema:schema37.properties.usage.required,parentSchema:schema37.properties.usage,data:data79};
if(vErrors === null){
vErrors = [err124];
}
else {
vErrors.push(err124);
}
errors++;
}
if(data79.calls === undefined){
const err125 = {instancePath:instancePath+"/canvasflow/usage",schemaPath:"run-state.schema.json/properties/usage/required",keyword:"required",params:{missingProperty: "calls"},message:"must have required property '"+"calls"+"'",schema:schema37.properties.usage.required,parentSchema:schema37.properties.usage,data:data79};
if(vErrors === null){
vErrors = [err125];
}
else {
vErrors.push(err125);
}
errors++;
}
if(data79.prompt_tokens !== undefined){
let data80 = data79.prompt_tokens;
if(typeof data80 == "number"){
if(data80 < 0 || isNaN(data80)){
const err126 = {instancePath:instancePath+"/canvasflow/usage/prompt_tokens",schemaPath:"run-state.schema.json/properties/usage/properties/prompt_tokens/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0",schema:0,parentSchema:schema37.properties.usage.properties.prompt_tokens,data:data80};
if(vErrors === null){
vErrors = [err126];
}
else {
vErrors.push(err126);
}
errors++;
}
}
else {
const err127 = {instancePath:instancePath+"/canvasflow/usage/prompt_tokens",schemaPath:"run-state.schema.json/properties/usage/properties/prompt_tokens/type",keyword:"type",params:{type: "number"},message:"must be number",schema:schema37.properties.usage.properties.prompt_tokens.type,parentSchema:schema37.properties.usage.properties.prompt_tokens,data:data80};
if(vErrors === null){
vErrors = [err127];
}
else {
vErrors.push(err127);
}
errors++;
}
}
if(data79.completion_tokens !== undefined){
let data81 = data79.completion_tokens;
if(typeof data81 == "number"){
if(data81 < 0 || isNaN(data81)){
const err128 = {instancePath:instancePath+"/canvasflow/usage/completion_tokens",schemaPath:"run-state.schema.json/properties/usage/properties/completion_tokens/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0",schema:0,parentSchema:schema37.properties.usage.properties.completion_tokens,data:data81};
if(vErrors === null){
vErrors = [err128];
}
else {
vErrors.push(err128);
}
errors++;
}
}
else {
const err129 = {instancePath:instancePath+"/canvasflow/usage/completion_tokens",schemaPath:"run-state.schema.json/properties/usage/properties/completion_tokens/type",keyword:"type",params:{type: "number"},message:"must be number",schema:schema37.properties.usage.properties.completion_tokens.type,parentSchema:schema37.properties.usage.properties.completion_tokens,data:data81};
if(vErrors === null){
vErrors = [err129];
}
else {
vErrors.push(err129);
}
errors++;
}
}
if(data79.total_tokens !== undefined){
let data82 = data79.total_tokens;
if(typeof data82 == "number"){
if(data82 < 0 || isNaN(data82)){
const err130 = {instancePath:instancePath+"/canvasflow/usage/total_tokens",schemaPath:"run-state.schema.json/properties/usage/properties/total_tokens/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0",schema:0,parentSchema:schema37.properties.usage.properties.total_tokens,data:data82};
if(vErrors === null){
vErrors = [err130];
}
else {
vErrors.push(err130);
}
errors++;
}
}
else {
const err131 = {instancePath:instancePath+"/canvasflow/usage/total_tokens",schemaPath:"run-state.schema.json/properties/usage/properties/total_tokens/type",keyword:"type",params:{type: "number"},message:"must be number",schema:schema37.properties.usage.properties.total_tokens.type,parentSchema:schema37.properties.usage.properties.total_tokens,data:data82};
if(vErrors === null){
vErrors = [err131];
}
else {
vErrors.push(err131);
}
errors++;
}
}
if(data79.calls !== undefined){
let data83 = data79.calls;
if(typeof data83 == "number"){
if(data83 < 0 || isNaN(data83)){
const err132 = {instancePath:instancePath+"/canvasflow/usage/calls",schemaPath:"run-state.schema.json/properties/usage/properties/calls/minimum",keyword:"minimum",params:{comparison: ">=", limit: 0},message:"must be >= 0",schema:0,parentSchema:schema37.properties.usage.properties.calls,data:data83};
if(vErrors === null){
vErrors = [err132];
}
else {
vErrors.push(err132);
}
errors++;
}
}
else {
const err133 = {instancePath:instancePath+"/canvasflow/usage/calls",schemaPath:"run-state.schema.json/properties/usage/properties/calls/type",keyword:"type",params:{type: "number"},message:"must be number",schema:schema37.properties.usage.properties.calls.type,parentSchema:schema37.properties.usage.properties.calls,data:data83};
if(vErrors === null){
vErrors = [err133];
}
else {
vErrors.push(err133);
}
errors++;
}
}
}
else {
const err134 = {instancePath:instancePath+"/canvasflow/usage",schemaPath:"run-state.schema.json/properties/usage/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema37.properties.usage.type,parentSchema:schema37.properties.usage,data:data79};
if(vErrors === null){
vErrors = [err134];
}
else {
vErrors.push(err134);
}
errors++;
}
}
if(data48.run !== undefined){
let data84 = data48.run;
if(data84 && typeof data84 == "object" && !Array.isArray(data84)){
if(data84.message_id === undefined){
const err135 = {instancePath:instancePath+"/canvasflow/run",schemaPath:"run-state.schema.json/properties/run/required",keyword:"required",params:{missingProperty: "message_id"},message:"must have required property '"+"message_id"+"'",schema:schema37.properties.run.required,parentSchema:schema37.properties.run,data:data84};
if(vErrors === null){
vErrors = [err135];
}
else {
vErrors.push(err135);
}
errors++;
}
if(data84.created_at === undefined){
const err136 = {instancePath:instancePath+"/canvasflow/run",schemaPath:"run-state.schema.json/properties/run/required",keyword:"required",params:{missingProperty: "created_at"},message:"must have required property '"+"created_at"+"'",schema:schema37.properties.run.required,parentSchema:schema37.properties.run,data:data84};
if(vErrors === null){
vErrors = [err136];
}
else {
vErrors.push(err136);
}
errors++;
}
if(data84.inputs === undefined){
const err137 = {instancePath:instancePath+"/canvasflow/run",schemaPath:"run-state.schema.json/properties/run/required",keyword:"required",params:{missingProperty: "inputs"},message:"must have required property '"+"inputs"+"'",schema:schema37.properties.run.required,parentSchema:schema37.properties.run,data:data84};
if(vErrors === null){
vErrors = [err137];
}
else {
vErrors.push(err137);
}
errors++;
}
if(data84.receivers === undefined){
const err138 = {instancePath:instancePath+"/canvasflow/run",schemaPath:"run-state.schema.json/properties/run/required",keyword:"required",params:{missingProperty: "receivers"},message:"must have required property '"+"receivers"+"'",schema:schema37.properties.run.required,parentSchema:schema37.properties.run,data:data84};
if(vErrors === null){
vErrors = [err138];
}
else {
vErrors.push(err138);
}
errors++;
}
if(data84.message_id !== undefined){
let data85 = data84.message_id;
if(typeof data85 !== "string"){
const err139 = {instancePath:instancePath+"/canvasflow/run/message_id",schemaPath:"run-state.schema.json/properties/run/properties/message_id/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema37.properties.run.properties.message_id.type,parentSchema:schema37.properties.run.properties.message_id,data:data85};
if(vErrors === null){
vErrors = [err139];
}
else {
vErrors.push(err139);
}
errors++;
}
}
if(data84.created_at !== undefined){
let data86 = data84.created_at;
if(!(typeof data86 == "number")){
const err140 = {instancePath:instancePath+"/canvasflow/run/created_at",schemaPath:"run-state.schema.json/properties/run/properties/created_at/type",keyword:"type",params:{type: "number"},message:"must be number",schema:schema37.properties.run.properties.created_at.type,parentSchema:schema37.properties.run.properties.created_at,data:data86};
if(vErrors === null){
vErrors = [err140];
}
else {
vErrors.push(err140);
}
errors++;
}
}
if(data84.inputs !== undefined){
let data87 = data84.inputs;
if(!(data87 && typeof data87 == "object" && !Array.isArray(data87))){
const err141 = {instancePath:instancePath+"/canvasflow/run/inputs",schemaPath:"run-state.schema.json/properties/run/properties/inputs/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema37.properties.run.properties.inputs.type,parentSchema:schema37.properties.run.properties.inputs,data:data87};
if(vErrors === null){
vErrors = [err141];
}
else {
vErrors.push(err141);
}
errors++;
}
}
if(data84.receivers !== undefined){
let data88 = data84.receivers;
if(Array.isArray(data88)){
const len13 = data88.length;
for(let i12=0; i12<len13; i12++){
let data89 = data88[i12];
if(typeof data89 !== "string"){
const err142 = {instancePath:instancePath+"/canvasflow/run/receivers/" + i12,schemaPath:"run-state.schema.json/properties/run/properties/receivers/items/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema37.properties.run.properties.receivers.items.type,parentSchema:schema37.properties.run.properties.receivers.items,data:data89};
if(vErrors === null){
vErrors = [err142];
}
else {
vErrors.push(err142);
}
errors++;
}
}
}
else {
const err143 = {instancePath:instancePath+"/canvasflow/run/receivers",schemaPath:"run-state.schema.json/properties/run/properties/receivers/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema37.properties.run.properties.receivers.type,parentSchema:schema37.properties.run.properties.receivers,data:data88};
if(vErrors === null){
vErrors = [err143];
}
else {
vErrors.push(err143);
}
errors++;
}
}
if(data84.last !== undefined){
let data90 = data84.last;
if(typeof data90 !== "string"){
const err144 = {instancePath:instancePath+"/canvasflow/run/last",schemaPath:"run-state.schema.json/properties/run/properties/last/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema37.properties.run.properties.last.type,parentSchema:schema37.properties.run.properties.last,data:data90};
if(vErrors === null){
vErrors = [err144];
}
else {
vErrors.push(err144);
}
errors++;
}
}
}
else {
const err145 = {instancePath:instancePath+"/canvasflow/run",schemaPath:"run-state.schema.json/properties/run/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema37.properties.run.type,parentSchema:schema37.properties.run,data:data84};
if(vErrors === null){
vErrors = [err145];
}
else {
vErrors.push(err145);
}
errors++;
}
}
if(data48.schedule !== undefined){
let data91 = data48.schedule;
if(!(data91 && typeof data91 == "object" && !Array.isArray(data91))){
const err146 = {instancePath:instancePath+"/canvasflow/schedule",schemaPath:"run-state.schema.json/properties/schedule/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema37.properties.schedule.type,parentSchema:schema37.properties.schedule,data:data91};
if(vErrors === null){
vErrors = [err146];
}
else {
vErrors.push(err146);
}
errors++;
}
}
if(data48.traceparent !== undefined){
let data92 = data48.traceparent;
if(typeof data92 === "string"){
if(!pattern9.test(data92)){
const err147 = {instancePath:instancePath+"/canvasflow/traceparent",schemaPath:"run-state.schema.json/properties/traceparent/pattern",keyword:"pattern",params:{pattern: "^[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$"},message:"must match pattern \""+"^[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$"+"\"",schema:"^[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$",parentSchema:schema37.properties.traceparent,data:data92};
if(vErrors === null){
vErrors = [err147];
}
else {
vErrors.push(err147);
}
errors++;
}
}
else {
const err148 = {instancePath:instancePath+"/canvasflow/traceparent",schemaPath:"run-state.schema.json/properties/traceparent/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema37.properties.traceparent.type,parentSchema:schema37.properties.traceparent,data:data92};
if(vErrors === null){
vErrors = [err148];
}
else {
vErrors.push(err148);
}
errors++;
}
}
}
else {
const err149 = {instancePath:instancePath+"/canvasflow",schemaPath:"run-state.schema.json/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema37.type,parentSchema:schema37,data:data48};
if(vErrors === null){
vErrors = [err149];
}
else {
vErrors.push(err149);
}
errors++;
}
}
}
else {
const err150 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema31.type,parentSchema:schema31,data};
if(vErrors === null){
vErrors = [err150];
}
else {
vErrors.push(err150);
}
errors++;
}
validate20.errors = vErrors;
return errors === 0;
}
validate20.evaluated = {"props":{"components":true,"path":true,"history":true,"retrieval":true,"globals":true,"variables":true,"memory":true,"graph":true,"task_id":true,"messages":true,"canvasflow":true},"dynamicProps":false,"dynamicItems":false};

