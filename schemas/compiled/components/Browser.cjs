// Generated from schemas/components/Browser.schema.json by `npm run schemas:compile`; do not edit.
"use strict";
module.exports = validate20;
module.exports.default = validate20;
const schema31 = {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://canvasflow.dev/schemas/components/Browser.schema.json","title":"Browser params","description":"A model drives a browser through a task (RAGFlow BrowserParam). Outputs: content, downloaded_files.","type":"object","properties":{"llm_id":{"type":"string","description":"The chat model, written <model>@<factory> (e.g. \"deepseek-chat@DeepSeek\"). Empty: no model chosen yet (warning)."},"sys_prompt":{"type":"string","description":"System prompt. Template references ({cpn@var}, {sys.x}, {env.x}) are rendered; <TASK_ANALYSIS>, <PLAN_GENERATION>, <REFLECTION>, <CONTEXT_SUMMARY>, <CONTEXT_RANKING> and <CITATION_GUIDELINES> blocks are taken out as prompt overrides."},"prompts":{"description":"The task for the browser agent (default \"{sys.query}\"): one string, or a list of {role, content}.","anyOf":[{"type":"array","items":{"type":"object","properties":{"role":{"type":"string","description":"user or assistant."},"content":{"type":"string","description":"The message text; template references are rendered."}}}},{"type":"string"}]},"max_tokens":{"type":["integer","string"],"description":"Maximum tokens of the answer (>= 0); sent only when maxTokensEnabled and > 0."},"temperature":{"type":["number","string"],"description":"Sampling temperature in [0, 1] (numeric strings accepted); sent when temperatureEnabled."},"top_p":{"type":["number","string"],"description":"Nucleus sampling in [0, 1]; sent when topPEnabled and > 0."},"presence_penalty":{"type":["number","string"],"description":"Presence penalty in [0, 1]; sent when presencePenaltyEnabled and > 0."},"frequency_penalty":{"type":["number","string"],"description":"Frequency penalty in [0, 1]; sent when frequencyPenaltyEnabled and > 0."},"maxTokensEnabled":{"type":"boolean","description":"Editor flag: send max_tokens."},"temperatureEnabled":{"type":"boolean","description":"Editor flag: send temperature."},"topPEnabled":{"type":"boolean","description":"Editor flag: send top_p."},"presencePenaltyEnabled":{"type":"boolean","description":"Editor flag: send presence_penalty."},"frequencyPenaltyEnabled":{"type":"boolean","description":"Editor flag: send frequency_penalty."},"parameter":{"type":"string","description":"Editor preset of the sampling params (Precise, Balance, Creative…); informational."},"thinking":{"type":["string","boolean","null"],"description":"Reasoning mode for models that support it; \"default\" leaves it to the model."},"llm_filter":{"type":"string","description":"Editor filter of the model list; informational."},"tenant_llm_id":{"type":["integer","string"],"description":"Editor bookkeeping of the chosen model; informational."},"cite":{"type":"boolean","description":"Add citation instructions when retrieved chunks exist (default true)."},"visual_files_var":{"type":["string","null"],"description":"Reference to a list of images (data: URIs) sent to a vision model, e.g. \"sys.files\"."},"output_structure":{"description":"Legacy field, unused."},"max_steps":{"type":["integer","string"],"description":"Maximum browser steps (> 0, default 30)."},"headless":{"type":"boolean","description":"Run the browser without a window (default true)."},"enable_default_extensions":{"type":"boolean","description":"Load browser-use's default extensions (default false)."},"chromium_sandbox":{"type":"boolean","description":"Run Chromium in its sandbox (default false)."},"persist_session":{"type":"boolean","description":"Keep the browser session between runs (default true)."},"upload_sources":{"type":"array","description":"Files the browser may upload: file ids, URLs or references to uploaded files."}}};

function validate20(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="https://canvasflow.dev/schemas/components/Browser.schema.json" */;
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
if(data.llm_id !== undefined){
let data0 = data.llm_id;
if(typeof data0 !== "string"){
const err0 = {instancePath:instancePath+"/llm_id",schemaPath:"#/properties/llm_id/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.llm_id.type,parentSchema:schema31.properties.llm_id,data:data0};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
}
if(data.sys_prompt !== undefined){
let data1 = data.sys_prompt;
if(typeof data1 !== "string"){
const err1 = {instancePath:instancePath+"/sys_prompt",schemaPath:"#/properties/sys_prompt/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.sys_prompt.type,parentSchema:schema31.properties.sys_prompt,data:data1};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
}
if(data.prompts !== undefined){
let data2 = data.prompts;
const _errs6 = errors;
let valid1 = false;
const _errs7 = errors;
if(Array.isArray(data2)){
const len0 = data2.length;
for(let i0=0; i0<len0; i0++){
let data3 = data2[i0];
if(data3 && typeof data3 == "object" && !Array.isArray(data3)){
if(data3.role !== undefined){
let data4 = data3.role;
if(typeof data4 !== "string"){
const err2 = {instancePath:instancePath+"/prompts/" + i0+"/role",schemaPath:"#/properties/prompts/anyOf/0/items/properties/role/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.prompts.anyOf[0].items.properties.role.type,parentSchema:schema31.properties.prompts.anyOf[0].items.properties.role,data:data4};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
}
if(data3.content !== undefined){
let data5 = data3.content;
if(typeof data5 !== "string"){
const err3 = {instancePath:instancePath+"/prompts/" + i0+"/content",schemaPath:"#/properties/prompts/anyOf/0/items/properties/content/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.prompts.anyOf[0].items.properties.content.type,parentSchema:schema31.properties.prompts.anyOf[0].items.properties.content,data:data5};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
}
else {
const err4 = {instancePath:instancePath+"/prompts/" + i0,schemaPath:"#/properties/prompts/anyOf/0/items/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema31.properties.prompts.anyOf[0].items.type,parentSchema:schema31.properties.prompts.anyOf[0].items,data:data3};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
}
else {
const err5 = {instancePath:instancePath+"/prompts",schemaPath:"#/properties/prompts/anyOf/0/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema31.properties.prompts.anyOf[0].type,parentSchema:schema31.properties.prompts.anyOf[0],data:data2};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
var _valid0 = _errs7 === errors;
valid1 = valid1 || _valid0;
const _errs15 = errors;
if(typeof data2 !== "string"){
const err6 = {instancePath:instancePath+"/prompts",schemaPath:"#/properties/prompts/anyOf/1/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.prompts.anyOf[1].type,parentSchema:schema31.properties.prompts.anyOf[1],data:data2};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
var _valid0 = _errs15 === errors;
valid1 = valid1 || _valid0;
if(!valid1){
const err7 = {instancePath:instancePath+"/prompts",schemaPath:"#/properties/prompts/anyOf",keyword:"anyOf",params:{},message:"must match a schema in anyOf",schema:schema31.properties.prompts.anyOf,parentSchema:schema31.properties.prompts,data:data2};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
else {
errors = _errs6;
if(vErrors !== null){
if(_errs6){
vErrors.length = _errs6;
}
else {
vErrors = null;
}
}
}
}
if(data.max_tokens !== undefined){
let data6 = data.max_tokens;
if((!((typeof data6 == "number") && (!(data6 % 1) && !isNaN(data6)))) && (typeof data6 !== "string")){
const err8 = {instancePath:instancePath+"/max_tokens",schemaPath:"#/properties/max_tokens/type",keyword:"type",params:{type: schema31.properties.max_tokens.type},message:"must be integer,string",schema:schema31.properties.max_tokens.type,parentSchema:schema31.properties.max_tokens,data:data6};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
if(data.temperature !== undefined){
let data7 = data.temperature;
if((!(typeof data7 == "number")) && (typeof data7 !== "string")){
const err9 = {instancePath:instancePath+"/temperature",schemaPath:"#/properties/temperature/type",keyword:"type",params:{type: schema31.properties.temperature.type},message:"must be number,string",schema:schema31.properties.temperature.type,parentSchema:schema31.properties.temperature,data:data7};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
}
if(data.top_p !== undefined){
let data8 = data.top_p;
if((!(typeof data8 == "number")) && (typeof data8 !== "string")){
const err10 = {instancePath:instancePath+"/top_p",schemaPath:"#/properties/top_p/type",keyword:"type",params:{type: schema31.properties.top_p.type},message:"must be number,string",schema:schema31.properties.top_p.type,parentSchema:schema31.properties.top_p,data:data8};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
if(data.presence_penalty !== undefined){
let data9 = data.presence_penalty;
if((!(typeof data9 == "number")) && (typeof data9 !== "string")){
const err11 = {instancePath:instancePath+"/presence_penalty",schemaPath:"#/properties/presence_penalty/type",keyword:"type",params:{type: schema31.properties.presence_penalty.type},message:"must be number,string",schema:schema31.properties.presence_penalty.type,parentSchema:schema31.properties.presence_penalty,data:data9};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
}
if(data.frequency_penalty !== undefined){
let data10 = data.frequency_penalty;
if((!(typeof data10 == "number")) && (typeof data10 !== "string")){
const err12 = {instancePath:instancePath+"/frequency_penalty",schemaPath:"#/properties/frequency_penalty/type",keyword:"type",params:{type: schema31.properties.frequency_penalty.type},message:"must be number,string",schema:schema31.properties.frequency_penalty.type,parentSchema:schema31.properties.frequency_penalty,data:data10};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
}
if(data.maxTokensEnabled !== undefined){
let data11 = data.maxTokensEnabled;
if(typeof data11 !== "boolean"){
const err13 = {instancePath:instancePath+"/maxTokensEnabled",schemaPath:"#/properties/maxTokensEnabled/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema31.properties.maxTokensEnabled.type,parentSchema:schema31.properties.maxTokensEnabled,data:data11};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
}
if(data.temperatureEnabled !== undefined){
let data12 = data.temperatureEnabled;
if(typeof data12 !== "boolean"){
const err14 = {instancePath:instancePath+"/temperatureEnabled",schemaPath:"#/properties/temperatureEnabled/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema31.properties.temperatureEnabled.type,parentSchema:schema31.properties.temperatureEnabled,data:data12};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
}
if(data.topPEnabled !== undefined){
let data13 = data.topPEnabled;
if(typeof data13 !== "boolean"){
const err15 = {instancePath:instancePath+"/topPEnabled",schemaPath:"#/properties/topPEnabled/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema31.properties.topPEnabled.type,parentSchema:schema31.properties.topPEnabled,data:data13};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
}
if(data.presencePenaltyEnabled !== undefined){
let data14 = data.presencePenaltyEnabled;
if(typeof data14 !== "boolean"){
const err16 = {instancePath:instancePath+"/presencePenaltyEnabled",schemaPath:"#/properties/presencePenaltyEnabled/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema31.properties.presencePenaltyEnabled.type,parentSchema:schema31.properties.presencePenaltyEnabled,data:data14};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
}
if(data.frequencyPenaltyEnabled !== undefined){
let data15 = data.frequencyPenaltyEnabled;
if(typeof data15 !== "boolean"){
const err17 = {instancePath:instancePath+"/frequencyPenaltyEnabled",schemaPath:"#/properties/frequencyPenaltyEnabled/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema31.properties.frequencyPenaltyEnabled.type,parentSchema:schema31.properties.frequencyPenaltyEnabled,data:data15};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
}
if(data.parameter !== undefined){
let data16 = data.parameter;
if(typeof data16 !== "string"){
const err18 = {instancePath:instancePath+"/parameter",schemaPath:"#/properties/parameter/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.parameter.type,parentSchema:schema31.properties.parameter,data:data16};
if(vErrors === null){
vErrors = [err18];
}
else {
vErrors.push(err18);
}
errors++;
}
}
if(data.thinking !== undefined){
let data17 = data.thinking;
if(((typeof data17 !== "string") && (typeof data17 !== "boolean")) && (data17 !== null)){
const err19 = {instancePath:instancePath+"/thinking",schemaPath:"#/properties/thinking/type",keyword:"type",params:{type: schema31.properties.thinking.type},message:"must be string,boolean,null",schema:schema31.properties.thinking.type,parentSchema:schema31.properties.thinking,data:data17};
if(vErrors === null){
vErrors = [err19];
}
else {
vErrors.push(err19);
}
errors++;
}
}
if(data.llm_filter !== undefined){
let data18 = data.llm_filter;
if(typeof data18 !== "string"){
const err20 = {instancePath:instancePath+"/llm_filter",schemaPath:"#/properties/llm_filter/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.llm_filter.type,parentSchema:schema31.properties.llm_filter,data:data18};
if(vErrors === null){
vErrors = [err20];
}
else {
vErrors.push(err20);
}
errors++;
}
}
if(data.tenant_llm_id !== undefined){
let data19 = data.tenant_llm_id;
if((!((typeof data19 == "number") && (!(data19 % 1) && !isNaN(data19)))) && (typeof data19 !== "string")){
const err21 = {instancePath:instancePath+"/tenant_llm_id",schemaPath:"#/properties/tenant_llm_id/type",keyword:"type",params:{type: schema31.properties.tenant_llm_id.type},message:"must be integer,string",schema:schema31.properties.tenant_llm_id.type,parentSchema:schema31.properties.tenant_llm_id,data:data19};
if(vErrors === null){
vErrors = [err21];
}
else {
vErrors.push(err21);
}
errors++;
}
}
if(data.cite !== undefined){
let data20 = data.cite;
if(typeof data20 !== "boolean"){
const err22 = {instancePath:instancePath+"/cite",schemaPath:"#/properties/cite/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema31.properties.cite.type,parentSchema:schema31.properties.cite,data:data20};
if(vErrors === null){
vErrors = [err22];
}
else {
vErrors.push(err22);
}
errors++;
}
}
if(data.visual_files_var !== undefined){
let data21 = data.visual_files_var;
if((typeof data21 !== "string") && (data21 !== null)){
const err23 = {instancePath:instancePath+"/visual_files_var",schemaPath:"#/properties/visual_files_var/type",keyword:"type",params:{type: schema31.properties.visual_files_var.type},message:"must be string,null",schema:schema31.properties.visual_files_var.type,parentSchema:schema31.properties.visual_files_var,data:data21};
if(vErrors === null){
vErrors = [err23];
}
else {
vErrors.push(err23);
}
errors++;
}
}
if(data.max_steps !== undefined){
let data22 = data.max_steps;
if((!((typeof data22 == "number") && (!(data22 % 1) && !isNaN(data22)))) && (typeof data22 !== "string")){
const err24 = {instancePath:instancePath+"/max_steps",schemaPath:"#/properties/max_steps/type",keyword:"type",params:{type: schema31.properties.max_steps.type},message:"must be integer,string",schema:schema31.properties.max_steps.type,parentSchema:schema31.properties.max_steps,data:data22};
if(vErrors === null){
vErrors = [err24];
}
else {
vErrors.push(err24);
}
errors++;
}
}
if(data.headless !== undefined){
let data23 = data.headless;
if(typeof data23 !== "boolean"){
const err25 = {instancePath:instancePath+"/headless",schemaPath:"#/properties/headless/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema31.properties.headless.type,parentSchema:schema31.properties.headless,data:data23};
if(vErrors === null){
vErrors = [err25];
}
else {
vErrors.push(err25);
}
errors++;
}
}
if(data.enable_default_extensions !== undefined){
let data24 = data.enable_default_extensions;
if(typeof data24 !== "boolean"){
const err26 = {instancePath:instancePath+"/enable_default_extensions",schemaPath:"#/properties/enable_default_extensions/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema31.properties.enable_default_extensions.type,parentSchema:schema31.properties.enable_default_extensions,data:data24};
if(vErrors === null){
vErrors = [err26];
}
else {
vErrors.push(err26);
}
errors++;
}
}
if(data.chromium_sandbox !== undefined){
let data25 = data.chromium_sandbox;
if(typeof data25 !== "boolean"){
const err27 = {instancePath:instancePath+"/chromium_sandbox",schemaPath:"#/properties/chromium_sandbox/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema31.properties.chromium_sandbox.type,parentSchema:schema31.properties.chromium_sandbox,data:data25};
if(vErrors === null){
vErrors = [err27];
}
else {
vErrors.push(err27);
}
errors++;
}
}
if(data.persist_session !== undefined){
let data26 = data.persist_session;
if(typeof data26 !== "boolean"){
const err28 = {instancePath:instancePath+"/persist_session",schemaPath:"#/properties/persist_session/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema31.properties.persist_session.type,parentSchema:schema31.properties.persist_session,data:data26};
if(vErrors === null){
vErrors = [err28];
}
else {
vErrors.push(err28);
}
errors++;
}
}
if(data.upload_sources !== undefined){
let data27 = data.upload_sources;
if(!(Array.isArray(data27))){
const err29 = {instancePath:instancePath+"/upload_sources",schemaPath:"#/properties/upload_sources/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema31.properties.upload_sources.type,parentSchema:schema31.properties.upload_sources,data:data27};
if(vErrors === null){
vErrors = [err29];
}
else {
vErrors.push(err29);
}
errors++;
}
}
}
else {
const err30 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema31.type,parentSchema:schema31,data};
if(vErrors === null){
vErrors = [err30];
}
else {
vErrors.push(err30);
}
errors++;
}
validate20.errors = vErrors;
return errors === 0;
}
validate20.evaluated = {"props":{"llm_id":true,"sys_prompt":true,"prompts":true,"max_tokens":true,"temperature":true,"top_p":true,"presence_penalty":true,"frequency_penalty":true,"maxTokensEnabled":true,"temperatureEnabled":true,"topPEnabled":true,"presencePenaltyEnabled":true,"frequencyPenaltyEnabled":true,"parameter":true,"thinking":true,"llm_filter":true,"tenant_llm_id":true,"cite":true,"visual_files_var":true,"output_structure":true,"max_steps":true,"headless":true,"enable_default_extensions":true,"chromium_sandbox":true,"persist_session":true,"upload_sources":true},"dynamicProps":false,"dynamicItems":false};

