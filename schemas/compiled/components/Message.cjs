// Generated from schemas/components/Message.schema.json by `npm run schemas:compile`; do not edit.
"use strict";
module.exports = validate20;
module.exports.default = validate20;
const schema31 = {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://canvasflow.dev/schemas/components/Message.schema.json","title":"Message params","description":"Shows text to the user: one of the content alternatives, with references.","type":"object","properties":{"content":{"type":"array","items":{"type":"string"},"description":"Alternative texts; one is picked at random. References and Jinja syntax are rendered."},"stream":{"type":["boolean","null"],"description":"Stream references one by one (default true). Jinja templates are rendered whole."},"output_format":{"type":["string","null"],"description":"markdown (default). Other formats are not converted by canvasflow."},"auto_play":{"type":["boolean","null"]},"status":{"description":"Copied into message_end."}},"required":["content"]};

function validate20(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="https://canvasflow.dev/schemas/components/Message.schema.json" */;
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
if(data.content === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "content"},message:"must have required property '"+"content"+"'",schema:schema31.required,parentSchema:schema31,data};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
if(data.content !== undefined){
let data0 = data.content;
if(Array.isArray(data0)){
const len0 = data0.length;
for(let i0=0; i0<len0; i0++){
let data1 = data0[i0];
if(typeof data1 !== "string"){
const err1 = {instancePath:instancePath+"/content/" + i0,schemaPath:"#/properties/content/items/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.content.items.type,parentSchema:schema31.properties.content.items,data:data1};
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
const err2 = {instancePath:instancePath+"/content",schemaPath:"#/properties/content/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema31.properties.content.type,parentSchema:schema31.properties.content,data:data0};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
}
if(data.stream !== undefined){
let data2 = data.stream;
if((typeof data2 !== "boolean") && (data2 !== null)){
const err3 = {instancePath:instancePath+"/stream",schemaPath:"#/properties/stream/type",keyword:"type",params:{type: schema31.properties.stream.type},message:"must be boolean,null",schema:schema31.properties.stream.type,parentSchema:schema31.properties.stream,data:data2};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
if(data.output_format !== undefined){
let data3 = data.output_format;
if((typeof data3 !== "string") && (data3 !== null)){
const err4 = {instancePath:instancePath+"/output_format",schemaPath:"#/properties/output_format/type",keyword:"type",params:{type: schema31.properties.output_format.type},message:"must be string,null",schema:schema31.properties.output_format.type,parentSchema:schema31.properties.output_format,data:data3};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
if(data.auto_play !== undefined){
let data4 = data.auto_play;
if((typeof data4 !== "boolean") && (data4 !== null)){
const err5 = {instancePath:instancePath+"/auto_play",schemaPath:"#/properties/auto_play/type",keyword:"type",params:{type: schema31.properties.auto_play.type},message:"must be boolean,null",schema:schema31.properties.auto_play.type,parentSchema:schema31.properties.auto_play,data:data4};
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
validate20.evaluated = {"props":{"content":true,"stream":true,"output_format":true,"auto_play":true,"status":true},"dynamicProps":false,"dynamicItems":false};

