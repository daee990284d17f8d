// Generated from schemas/components/Extractor.schema.json by `npm run schemas:compile`; do not edit.
"use strict";
module.exports = validate20;
module.exports.default = validate20;
const schema31 = {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://canvasflow.dev/schemas/components/Extractor.schema.json","title":"Extractor params","description":"RAGFlow's Extractor (\"Transformer\"): a chat model over each chunk its prompts reference; the answer lands in the chunk under field_name.","type":"object","properties":{"field_name":{"type":"string","description":"Where each answer goes: summary, keywords, questions or metadata."},"llm_id":{"type":"string","description":"The chat model; empty: the configured default."},"sys_prompt":{"type":"string"},"prompts":{"anyOf":[{"type":"string"},{"type":"array","items":{"type":"object","properties":{"role":{"type":"string"},"content":{"type":"string"}}}}]},"temperature":{"type":["number","string"]},"top_p":{"type":["number","string"]},"presence_penalty":{"type":["number","string"]},"frequency_penalty":{"type":["number","string"]},"max_tokens":{"type":["number","string"]}}};

function validate20(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="https://canvasflow.dev/schemas/components/Extractor.schema.json" */;
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
if(data.field_name !== undefined){
let data0 = data.field_name;
if(typeof data0 !== "string"){
const err0 = {instancePath:instancePath+"/field_name",schemaPath:"#/properties/field_name/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.field_name.type,parentSchema:schema31.properties.field_name,data:data0};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
}
if(data.llm_id !== undefined){
let data1 = data.llm_id;
if(typeof data1 !== "string"){
const err1 = {instancePath:instancePath+"/llm_id",schemaPath:"#/properties/llm_id/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.llm_id.type,parentSchema:schema31.properties.llm_id,data:data1};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
}
if(data.sys_prompt !== undefined){
let data2 = data.sys_prompt;
if(typeof data2 !== "string"){
const err2 = {instancePath:instancePath+"/sys_prompt",schemaPath:"#/properties/sys_prompt/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.sys_prompt.type,parentSchema:schema31.properties.sys_prompt,data:data2};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
}
if(data.prompts !== undefined){
let data3 = data.prompts;
const _errs8 = errors;
let valid1 = false;
const _errs9 = errors;
if(typeof data3 !== "string"){
const err3 = {instancePath:instancePath+"/prompts",schemaPath:"#/properties/prompts/anyOf/0/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.prompts.anyOf[0].type,parentSchema:schema31.properties.prompts.anyOf[0],data:data3};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
var _valid0 = _errs9 === errors;
valid1 = valid1 || _valid0;
const _errs11 = errors;
if(Array.isArray(data3)){
const len0 = data3.length;
for(let i0=0; i0<len0; i0++){
let data4 = data3[i0];
if(data4 && typeof data4 == "object" && !Array.isArray(data4)){
if(data4.role !== undefined){
let data5 = data4.role;
if(typeof data5 !== "string"){
const err4 = {instancePath:instancePath+"/prompts/" + i0+"/role",schemaPath:"#/properties/prompts/anyOf/1/items/properties/role/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.prompts.anyOf[1].items.properties.role.type,parentSchema:schema31.properties.prompts.anyOf[1].items.properties.role,data:data5};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
if(data4.content !== undefined){
let data6 = data4.content;
if(typeof data6 !== "string"){
const err5 = {instancePath:instancePath+"/prompts/" + i0+"/content",schemaPath:"#/properties/prompts/anyOf/1/items/properties/content/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.prompts.anyOf[1].items.properties.content.type,parentSchema:schema31.properties.prompts.anyOf[1].items.properties.content,data:data6};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
}
else {
const err6 = {instancePath:instancePath+"/prompts/" + i0,schemaPath:"#/properties/prompts/anyOf/1/items/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema31.properties.prompts.anyOf[1].items.type,parentSchema:schema31.properties.prompts.anyOf[1].items,data:data4};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
}
}
else {
const err7 = {instancePath:instancePath+"/prompts",schemaPath:"#/properties/prompts/anyOf/1/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema31.properties.prompts.anyOf[1].type,parentSchema:schema31.properties.prompts.anyOf[1],data:data3};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
var _valid0 = _errs11 === errors;
valid1 = valid1 || _valid0;
if(!valid1){
const err8 = {instancePath:instancePath+"/prompts",schemaPath:"#/properties/prompts/anyOf",keyword:"anyOf",params:{},message:"must match a schema in anyOf",schema:schema31.properties.prompts.anyOf,parentSchema:schema31.properties.prompts,data:data3};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
else {
errors = _errs8;
if(vErrors !== null){
if(_errs8){
vErrors.length = _errs8;
}
else {
vErrors = null;
}
}
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
if(data.max_tokens !== undefined){
let data11 = data.max_tokens;
if((!(typeof data11 == "number")) && (typeof data11 !== "string")){
const err13 = {instancePath:instancePath+"/max_tokens",schemaPath:"#/properties/max_tokens/type",keyword:"type",params:{type: schema31.properties.max_tokens.type},message:"must be number,string",schema:schema31.properties.max_tokens.type,parentSchema:schema31.properties.max_tokens,data:data11};
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
const err14 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema31.type,parentSchema:schema31,data};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
validate20.errors = vErrors;
return errors === 0;
}
validate20.evaluated = {"props":{"field_name":true,"llm_id":true,"sys_prompt":true,"prompts":true,"temperature":true,"top_p":true,"presence_penalty":true,"frequency_penalty":true,"max_tokens":true},"dynamicProps":false,"dynamicItems":false};

