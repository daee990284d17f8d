// Generated from schemas/components/ExcelProcessor.schema.json by `npm run schemas:compile`; do not edit.
"use strict";
module.exports = validate20;
module.exports.default = validate20;
const schema31 = {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://canvasflow.dev/schemas/components/ExcelProcessor.schema.json","title":"ExcelProcessor params","description":"Reads, merges, transforms or writes spreadsheets (RAGFlow ExcelProcessorParam). A canvas node only. Outputs: data, summary, markdown, attachment.","type":"object","properties":{"input_files":{"type":"array","description":"References to uploaded spreadsheet files (\"begin@file\" or \"{begin@file}\")."},"operation":{"type":"string","description":"read (default), merge, transform or output.","enum":["read","merge","transform","output"]},"sheet_selection":{"type":"string","description":"all (default), first, or comma-separated sheet names."},"merge_strategy":{"type":"string","description":"concat (default) or join.","enum":["concat","join"]},"join_on":{"type":"string","description":"Column to join on when merge_strategy is join."},"transform_instructions":{"type":"string","description":"Instructions for the transformation."},"transform_data":{"type":"string","description":"Reference to the rows to transform or write out."},"output_format":{"type":"string","description":"xlsx (default) or csv.","enum":["xlsx","csv"]},"output_filename":{"type":"string","description":"Output file name without extension (default output)."}}};

function validate20(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="https://canvasflow.dev/schemas/components/ExcelProcessor.schema.json" */;
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
if(data.input_files !== undefined){
let data0 = data.input_files;
if(!(Array.isArray(data0))){
const err0 = {instancePath:instancePath+"/input_files",schemaPath:"#/properties/input_files/type",keyword:"type",params:{type: "array"},message:"must be array",schema:schema31.properties.input_files.type,parentSchema:schema31.properties.input_files,data:data0};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
}
if(data.operation !== undefined){
let data1 = data.operation;
if(typeof data1 !== "string"){
const err1 = {instancePath:instancePath+"/operation",schemaPath:"#/properties/operation/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.operation.type,parentSchema:schema31.properties.operation,data:data1};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
if(!((((data1 === "read") || (data1 === "merge")) || (data1 === "transform")) || (data1 === "output"))){
const err2 = {instancePath:instancePath+"/operation",schemaPath:"#/properties/operation/enum",keyword:"enum",params:{allowedValues: schema31.properties.operation.enum},message:"must be equal to one of the allowed values",schema:schema31.properties.operation.enum,parentSchema:schema31.properties.operation,data:data1};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
}
if(data.sheet_selection !== undefined){
let data2 = data.sheet_selection;
if(typeof data2 !== "string"){
const err3 = {instancePath:instancePath+"/sheet_selection",schemaPath:"#/properties/sheet_selection/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.sheet_selection.type,parentSchema:schema31.properties.sheet_selection,data:data2};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
if(data.merge_strategy !== undefined){
let data3 = data.merge_strategy;
if(typeof data3 !== "string"){
const err4 = {instancePath:instancePath+"/merge_strategy",schemaPath:"#/properties/merge_strategy/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.merge_strategy.type,parentSchema:schema31.properties.merge_strategy,data:data3};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
if(!((data3 === "concat") || (data3 === "join"))){
const err5 = {instancePath:instancePath+"/merge_strategy",schemaPath:"#/properties/merge_strategy/enum",keyword:"enum",params:{allowedValues: schema31.properties.merge_strategy.enum},message:"must be equal to one of the allowed values",schema:schema31.properties.merge_strategy.enum,parentSchema:schema31.properties.merge_strategy,data:data3};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
if(data.join_on !== undefined){
let data4 = data.join_on;
if(typeof data4 !== "string"){
const err6 = {instancePath:instancePath+"/join_on",schemaPath:"#/properties/join_on/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.join_on.type,parentSchema:schema31.properties.join_on,data:data4};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
}
if(data.transform_instructions !== undefined){
let data5 = data.transform_instructions;
if(typeof data5 !== "string"){
const err7 = {instancePath:instancePath+"/transform_instructions",schemaPath:"#/properties/transform_instructions/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.transform_instructions.type,parentSchema:schema31.properties.transform_instructions,data:data5};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
if(data.transform_data !== undefined){
let data6 = data.transform_data;
if(typeof data6 !== "string"){
const err8 = {instancePath:instancePath+"/transform_data",schemaPath:"#/properties/transform_data/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.transform_data.type,parentSchema:schema31.properties.transform_data,data:data6};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
if(data.output_format !== undefined){
let data7 = data.output_format;
if(typeof data7 !== "string"){
const err9 = {instancePath:instancePath+"/output_format",schemaPath:"#/properties/output_format/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.output_format.type,parentSchema:schema31.properties.output_format,data:data7};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
if(!((data7 === "xlsx") || (data7 === "csv"))){
const err10 = {instancePath:instancePath+"/output_format",schemaPath:"#/properties/output_format/enum",keyword:"enum",params:{allowedValues: schema31.properties.output_format.enum},message:"must be equal to one of the allowed values",schema:schema31.properties.output_format.enum,parentSchema:schema31.properties.output_format,data:data7};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
if(data.output_filename !== undefined){
let data8 = data.output_filename;
if(typeof data8 !== "string"){
const err11 = {instancePath:instancePath+"/output_filename",schemaPath:"#/properties/output_filename/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.output_filename.type,parentSchema:schema31.properties.output_filename,data:data8};
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
const err12 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema31.type,parentSchema:schema31,data};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
validate20.errors = vErrors;
return errors === 0;
}
validate20.evaluated = {"props":{"input_files":true,"operation":true,"sheet_selection":true,"merge_strategy":true,"join_on":true,"transform_instructions":true,"transform_data":true,"output_format":true,"output_filename":true},"dynamicProps":false,"dynamicItems":false};

