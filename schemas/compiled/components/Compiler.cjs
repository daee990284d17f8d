// Generated from schemas/components/Compiler.schema.json by `npm run schemas:compile`; do not edit.
"use strict";
module.exports = validate20;
module.exports.default = validate20;
const schema31 = {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://canvasflow.dev/schemas/components/Compiler.schema.json","title":"Compiler params","description":"RAGFlow's Compiler: compiles chunks with a compilation template group from RAGFlow's database. canvasflow has no such templates: the chunks pass through.","type":"object","properties":{"compilation_template_group_id":{"type":"string"},"compilation_template_group_ids":{"type":"array","items":{"type":"string"}},"llm_id":{"type":"string"},"plan":{"type":"boolean"},"mode":{"type":"string"}}};

function validate20(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="https://canvasflow.dev/schemas/components/Compiler.schema.json" */;
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
if(data.compilation_template_group_id !== undefined){
let data0 = data.compilation_template_group_id;
if(typeof data0 !== "string"){
const err0 = {instancePath:instancePath+"/compilation_template_group_id",schemaPath:"#/properties/compilation_template_group_id/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.compilation_template_group_id.type,parentSchema:schema31.properties.compilation_template_group_id,data:data0};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
}
if(data.compilation_template_group_ids !== undefined){
let data1 = data.compilation_template_group_ids;
if(Array.isArray(data1)){
const len0 = data1.length;
for(let i0=0; i0<len0; i0++){
let data2 = data1[i0];
if(typeof data2 !== "string"){
const err1 = {instancePath:instancePath+"/compilation_template_group_ids/" + i0,schemaPath:"#/properties/compilation_template_group_ids/items/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.compilation_template_group_ids.items.type,parentSchema:schema31.properties.compilation_template_group_ids.items,data:data2};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
}
}
else {
const err2 = {instancePath:instancePath+"/compilation_template_group_ids",schemaPath:"#/properties/compilation_template_group_ids/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema31.properties.compilation_template_group_ids.type,parentSchema:schema31.properties.compilation_template_group_ids,data:data1};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
}
if(data.llm_id !== undefined){
let data3 = data.llm_id;
if(typeof data3 !== "string"){
const err3 = {instancePath:instancePath+"/llm_id",schemaPath:"#/properties/llm_id/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.llm_id.type,parentSchema:schema31.properties.llm_id,data:data3};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
if(data.plan !== undefined){
let data4 = data.plan;
if(typeof data4 !== "boolean"){
const err4 = {instancePath:instancePath+"/plan",schemaPath:"#/properties/plan/type",keyword:"type",params:{type: "boolean"},message:"must be boolean",schema:schema31.properties.plan.type,parentSchema:schema31.properties.plan,data:data4};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
if(data.mode !== undefined){
let data5 = data.mode;
if(typeof data5 !== "string"){
const err5 = {instancePath:instancePath+"/mode",schemaPath:"#/properties/mode/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.mode.type,parentSchema:schema31.properties.mode,data:data5};
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
const err6 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema31.type,parentSchema:schema31,data};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
validate20.errors = vErrors;
return errors === 0;
}
validate20.evaluated = {"props":{"compilation_template_group_id":true,"compilation_template_group_ids":true,"llm_id":true,"plan":true,"mode":true},"dynamicProps":false,"dynamicItems":false};

